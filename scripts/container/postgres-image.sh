#!/usr/bin/env bash
# CI only: makes compose.yaml's `postgres:15-bookworm` resolvable where no container registry is
# reachable, by building a stand-in from Debian bookworm's own PostgreSQL 15 (mmdebstrap), with
# the official image's interface as compose.yaml uses it: POSTGRES_USER, POSTGRES_PASSWORD and
# POSTGRES_DB create the role and database on first start, data in /var/lib/postgresql/data,
# password authentication over the network, `pg_isready` on the PATH. Uses the official image
# whenever it is present or can be pulled.
set -euo pipefail

engine="${CONTAINER_ENGINE:-podman}"
tag="docker.io/library/postgres:15-bookworm"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if "$engine" image exists "$tag" 2>/dev/null; then exit 0; fi
if timeout 60 "$engine" pull -q "$tag" >/dev/null 2>&1; then exit 0; fi
echo "$tag cannot be pulled: building a stand-in from Debian's postgresql-15"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mmdebstrap --quiet --variant=minbase --include=postgresql-15,postgresql-client-15 bookworm "$work/rootfs.tar" "$mirror"
"$engine" import -q "$work/rootfs.tar" localhost/bookworm-postgres-15 >/dev/null

cat > "$work/entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
# The official image's first start, as far as compose.yaml relies on it.
set -eu
export PGDATA=/var/lib/postgresql/data
bin=/usr/lib/postgresql/15/bin
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile
  chown postgres /tmp/pwfile
  su postgres -c "$bin/initdb --username='${POSTGRES_USER:-postgres}' --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 -D '$PGDATA'" >/dev/null
  rm /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  su postgres -c "$bin/pg_ctl -D '$PGDATA' -o '-c listen_addresses=' -w start" >/dev/null
  # The official image's default database is named after the user; `postgres` exists already.
  db="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}"
  if [ "$db" != postgres ]; then su postgres -c "$bin/createdb --username='${POSTGRES_USER:-postgres}' '$db'"; fi
  su postgres -c "$bin/pg_ctl -D '$PGDATA' -m fast -w stop" >/dev/null
fi
# PostgreSQL itself as PID 1, so the engine's stop signal reaches it.
exec setpriv --reuid=postgres --regid=postgres --init-groups "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
ENTRYPOINT
cat > "$work/Containerfile" <<'CONTAINERFILE'
FROM localhost/bookworm-postgres-15
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CONTAINERFILE
"$engine" build -q --format docker -t "$tag" "$work" >/dev/null
echo "built $tag"
