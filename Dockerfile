# syntax=docker/dockerfile:1
# The portal with its embedded relay, one Node 22 LTS process. Build: docker build -t relay-portal .
# Run: docker run -p 3000:3000 -v relay-data:/data -e SESSION_SECRET=… -e JWT_SECRET=… \
#        -e PUBLIC_URL=https://portal.example.com relay-portal

ARG NODE_IMAGE=node:22-bookworm-slim

# better-sqlite3 compiles from source: the toolchain lives only in the build stages.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./

FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM toolchain AS prod-deps
RUN npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=/data/relay.sqlite
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
COPY server ./server
COPY relay ./relay
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/resources/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same production start the end-to-end tests run.
CMD ["node", "--import", "tsx", "server/main.ts"]
