# syntax=docker/dockerfile:1
# The portal with its embedded relay, one Node 22 LTS process, run as compiled JavaScript.
# Build: docker build -t relay-portal .   (other machines: --platform linux/amd64,linux/arm64)
# Run:   docker run -p 3000:3000 -v relay-data:/data -e SESSION_SECRET=… -e JWT_SECRET=… \
#          -e PUBLIC_URL=https://portal.example.com relay-portal
# The relay alone (compose.yaml): the same image with `node build/start/relay.js`; the operator
# CLI: `docker exec <container> node build/start/cli.js …`.

ARG NODE_IMAGE=node:22-bookworm-slim

# better-sqlite3 compiles from source: the toolchain lives only in the build stage.
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build compiles the server, relay and CLI too (scripts/build-server.ts); then only run-time
# packages stay: `optional` also drops typescript, which a few packages list as an optional peer.
# better-sqlite3's sources and objects are not needed once its binding is built.
RUN npm run build \
 && npm prune --omit=dev --omit=optional --no-audit --no-fund \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
           node_modules/better-sqlite3/build/Release/obj* node_modules/better-sqlite3/build/Release/.deps \
           node_modules/better-sqlite3/build/deps

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=/data/relay.sqlite
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/resources/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "build/start/server.js"]
