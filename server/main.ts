/**
 * The production process (`npm start`, the container's command): one Node process serving the
 * portal build, with the relay mounted on the same origin at /api and /v1 unless RELAY_URL points
 * at a relay elsewhere (DESIGN §2).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import type { HttpBindings } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono, type Context } from 'hono'
import { compress } from 'hono/compress'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { clientIpHeader } from '#app/utils/client-ip.ts'
import { startEmbeddedRelay, type EmbeddedRelay } from './embedded-relay.ts'
import { prepareEnv } from './env.ts'

const env = prepareEnv()
const relay: EmbeddedRelay | undefined = env.RELAY_URL ? undefined : await startEmbeddedRelay()

// BUILD_DIR as in react-router.config.ts; the path is computed so TypeScript does not resolve it.
const buildDir = process.env.BUILD_DIR ?? 'build'
const build = (await import(pathToFileURL(resolve(buildDir, 'server/index.js')).href)) as ServerBuild
const handlePortal = createRequestHandler(build, 'production')

function peerAddress(c: Context): string {
  return getConnInfo(c).remote.address ?? 'unknown'
}

const app = new Hono<{ Bindings: HttpBindings }>()

// Fingerprinted assets never change: cache for a year; serve the .br/.gz made at build time.
app.use(
  '/assets/*',
  serveStatic({
    root: `${buildDir}/client`,
    precompressed: true,
    onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
  }),
)
// A missing asset is a 404, not the Home page the portal shows for unknown paths.
app.all('/assets/*', (c) => c.text('Not found', 404))
app.use('*', serveStatic({ root: `${buildDir}/client`, precompressed: true }))

if (relay) {
  // Streams (SSE) must pass through untouched: the relay routes skip compression.
  const toRelay = (c: Context<{ Bindings: HttpBindings }>) =>
    relay.fetch(c.req.raw, { clientIp: peerAddress(c), incoming: c.env.incoming, outgoing: c.env.outgoing })
  app.all('/api/*', toRelay)
  app.all('/v1/*', toRelay)
}

app.use('*', compress())
app.all('*', (c) => {
  const request = new Request(c.req.raw)
  request.headers.set(clientIpHeader, peerAddress(c))
  return handlePortal(request)
})

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  console.log(`Portal listening on http://localhost:${info.port}${relay ? ' (embedded relay at /api and /v1)' : ` (relay: ${env.RELAY_URL})`}`)
})

/**
 * Stops taking requests and lets those in flight (relayed streams) end for up to 8 s, inside a
 * container's usual 10 s grace, so their charges are settled before the relay closes.
 */
async function shutdown() {
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    setTimeout(resolve, 8000).unref()
  })
  await relay?.close()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())
