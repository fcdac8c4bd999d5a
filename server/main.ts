/**
 * The production process (`npm start`, the container's command): one Node process serving the
 * portal build, with the relay mounted on the same origin at /api and /v1 (server/relay-paths.ts)
 * unless RELAY_URL points at a relay elsewhere (docs/decisions/001-one-process-portal-and-relay.md).
 *
 * Whatever a request holds, it gets an answer and never ends the process
 * (docs/decisions/012-request-limits.md): bodies are capped before they are read, the browser's
 * address is resolved once by the relay's rule, and an error no handler caught is logged and
 * answered 500.
 *
 * With WORKERS > 1 (the default on PostgreSQL: one per CPU) this process only forks and keeps
 * that many such processes on the same port (relay/workers.ts, docs/decisions/076-the-hot-path.md).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { HttpBindings } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { compress } from 'hono/compress'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { clientIpHeader } from './client-ip-header.ts'
import { resolveClientAddress } from '#relay/http/client-ip.ts'
import { startEmbeddedRelay, type EmbeddedRelay } from './embedded-relay.ts'
import { isMalformed, refuseTunnels } from './request-guards.ts'
import { isRelayPath } from './relay-paths.ts'
import { metricsResponse, processRegistry } from '#relay/telemetry/registry.ts'
import { keepRunningOnStrayErrors, serveWithBacklog, stopOnSignals } from '#relay/process-lifecycle.ts'
import { PortalMetrics } from './portal-metrics.ts'
import { routeIds } from './route-ids.ts'
import { startTracing } from '#relay/telemetry/tracing.ts'
import { servesHere, workerCount } from '#relay/workers.ts'
import { configOrExit } from '#relay/config.ts'

/** The portal's forms are short text; a ticket of 5,000 four-byte characters, form-encoded, is about 60 KiB. */
const portalBodyLimitBytes = 256 * 1024

// Handed over by scripts/start.ts, else parsed here (the container runs this file directly).
const config = configOrExit()
if (!servesHere(workerCount(config), config)) await new Promise(() => {})
const env = config.portal
const relay: EmbeddedRelay | undefined = config.relay ? await startEmbeddedRelay(config.relay) : undefined

// The path is computed so TypeScript does not resolve it.
const { buildDir } = config.process
const build = (await import(pathToFileURL(resolve(buildDir, 'server/index.js')).href)) as ServerBuild
const handlePortal = createRequestHandler(build, 'production')
const routeOf = routeIds(build)
const portalMetrics = env.metricsToken ? new PortalMetrics(processRegistry()) : null
const tracing = await startTracing(env)

type ServerContext = Context<{ Bindings: HttpBindings }>

/** The browser's address, by the relay's one rule (the socket peer, or our proxy's X-Forwarded-For entry). */
function clientAddress(c: ServerContext): string {
  return resolveClientAddress(getConnInfo(c).remote.address, c.req.header('x-forwarded-for'), env.trustProxy)
}

const app = new Hono<{ Bindings: HttpBindings }>()

app.use('*', async (c, next) => (isMalformed(c.env.incoming) ? c.text('Bad request', 400) : next()))
app.get('/metrics', (c) => metricsResponse(c.req.raw, env.metricsToken))

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
  // The relay caps its own bodies (account calls small, model calls Anthropic's 32 MB) and answers
  // in each client's format. Streams (SSE) must pass through untouched: no compression here.
  const toRelay = (c: ServerContext) => relay.fetch(c.req.raw, { clientIp: clientAddress(c), incoming: c.env.incoming, outgoing: c.env.outgoing })
  app.use('*', (c, next) => (isRelayPath(c.req.path) ? toRelay(c) : next()))
}

// Refused on its Content-Length before a byte is read; a body without one is cut off at the limit.
app.use('*', bodyLimit({ maxSize: portalBodyLimitBytes, onError: (c) => c.text('Request body too large', 413) }))
app.use('*', compress())
app.all('*', async (c) => {
  const { method } = c.req
  // Pages are read and forms posted; no other method means anything to the portal.
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return c.text('Method not allowed', 405, { allow: 'GET, HEAD, POST' })
  const headers = new Headers(c.req.raw.headers)
  headers.set(clientIpHeader, clientAddress(c))
  // Read here, inside the body limit, so an oversized body without Content-Length ends in 413 too.
  const body = method === 'GET' || method === 'HEAD' ? undefined : await c.req.arrayBuffer()
  const started = performance.now()
  const route = portalMetrics || tracing ? routeOf(c.req.path) : ''
  const span = tracing?.start(`${method} ${route}`, { 'http.request.method': method, 'http.route': route })
  const response = await handlePortal(new Request(c.req.url, { method, headers, body, signal: c.req.raw.signal }))
  portalMetrics?.observe(route, method, response.status, performance.now() - started)
  span?.end({ 'http.response.status_code': response.status }, response.status >= 500)
  return response
})

app.onError((error, c) => {
  console.error(`unhandled error answering ${c.req.method} ${c.req.path}:`, error)
  return c.text('Internal error', 500)
})

const server = serveWithBacklog({ fetch: app.fetch, port: config.process.port ?? 3000, hostname: config.process.host }, (info) => {
  console.log(`Portal listening on http://localhost:${info.port}${relay ? ' (embedded relay at /api and /v1)' : ` (relay: ${env.relayUrl})`}`)
})

refuseTunnels(server)
// From here on, not before: a failed start (a bad environment, a database out of reach) must end the process.
keepRunningOnStrayErrors()
stopOnSignals(server, {
  graceMs: config.process.shutdownGraceMs,
  finishCalls: relay && ((graceMs) => relay.finishCalls(graceMs)),
  async close() {
    await relay?.close()
    // Its last spans exported.
    await tracing?.close()
  },
})
