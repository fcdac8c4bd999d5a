/**
 * How a serving process (the portal server, a relay on its own) lives and ends.
 * docs/decisions/013-the-database.md says why stray errors do not end it.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer, type ServerType } from '@hono/node-server'

/** After the grace, how long cut calls and other requests get to end before every connection is closed. */
const afterGraceMs = 5000

/**
 * Connections the kernel holds for the process before it accepts them (Linux caps it at
 * `net.core.somaxconn`). Node's 511 overflows when thousands of clients connect at once, as
 * after another relay's restart or a network blip: past it Linux drops their handshakes, and with
 * SYN cookies their first request is answered with a reset.
 */
const listenBacklog = 8192

/** Serves `fetch` as @hono/node-server's `serve` does, with a longer queue of connections to accept. */
export function serveWithBacklog(options: { fetch: Parameters<typeof createAdaptorServer>[0]['fetch']; port: number; hostname?: string }, listening: (info: AddressInfo) => void): ServerType {
  const server = createAdaptorServer(options)
  server.listen({ port: options.port, host: options.hostname, backlog: listenBacklog }, () => listening(server.address() as AddressInfo))
  return server
}

/**
 * An error that escapes every handler (a timer's callback, a socket's event, a promise nobody
 * awaited) is logged, and the process keeps serving. Ending it would cut every user's calls in
 * flight and leave their points frozen until restart, over what is one request's fault.
 */
export function keepRunningOnStrayErrors(log: (message: string, error: unknown) => void = console.error): void {
  // A log that went away (its pipe's reader ended: EPIPE) cannot be told so: as a stray error, its
  // failure would be logged to it, fail again, and spin the process at full CPU for good.
  for (const output of [process.stdout, process.stderr]) output.on('error', () => {})
  process.on('uncaughtException', (error) => log('uncaught exception (the server keeps running):', error))
  process.on('unhandledRejection', (reason) => log('unhandled rejection (the server keeps running):', reason))
}

export interface Stopping {
  /** How long requests and calls in flight may go on once a signal came. */
  graceMs: number
  /** The embedded relay's calls: refuse new ones, wait for those in flight, cut them past the grace (relay/index.ts). */
  finishCalls?: (graceMs: number) => Promise<void>
  /** Last: settle the charges, close the database. */
  close: () => Promise<void>
}

/**
 * On SIGTERM or SIGINT: stop listening (a relay also stops taking calls on the connections still
 * open: its health check and new /v1 calls answer 503), let what is in flight end for up to
 * `graceMs`, cut the rest, run `close`, exit. Once only, however many signals come.
 */
export function stopOnSignals(served: ServerType, { graceMs, finishCalls, close }: Stopping): void {
  // Both callers serve HTTP/1 (given no HTTP/2 options).
  const server = served as Server
  const requests = requestsInFlight(server)
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      server.close()
      requests.stopping()
      let timer: NodeJS.Timeout | undefined
      await Promise.race([Promise.all([requests.ended(), finishCalls?.(graceMs)]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs + afterGraceMs)))])
      clearTimeout(timer)
      server.closeAllConnections()
      await close()
      process.exit(0)
    })()
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

/**
 * Counts the server's requests until their responses end. Once stopping, a connection whose
 * response ends is closed rather than kept alive (Node 20 would keep it until its keep-alive
 * timeout, and its client would send the next call to a process that is leaving).
 */
function requestsInFlight(http: Server): { stopping(): void; ended(): Promise<void> } {
  let open = 0
  let stopping = false
  let whenNone: (() => void) | undefined
  http.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    open += 1
    if (stopping) response.shouldKeepAlive = false
    response.once('close', () => {
      open -= 1
      if (!stopping) return
      http.closeIdleConnections()
      if (open === 0) whenNone?.()
    })
  })
  return {
    stopping() {
      stopping = true
      http.closeIdleConnections()
    },
    ended: () => (open === 0 ? Promise.resolve() : new Promise((resolve) => (whenNone = resolve))),
  }
}
