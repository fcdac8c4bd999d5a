/**
 * How a serving process (the portal server, a relay on its own) lives and ends.
 * docs/decisions/013-the-database.md says why stray errors do not end it.
 */
import type { ServerType } from '@hono/node-server'

/** How long calls in flight (relayed streams) may take to end: inside a container's usual 10 s grace. */
const drainMs = 8000

/**
 * An error that escapes every handler (a timer's callback, a socket's event, a promise nobody
 * awaited) is logged, and the process keeps serving. Ending it would cut every user's calls in
 * flight and leave their points frozen until restart, over what is one request's fault.
 */
export function keepRunningOnStrayErrors(log: (message: string, error: unknown) => void = console.error): void {
  process.on('uncaughtException', (error) => log('uncaught exception (the server keeps running):', error))
  process.on('unhandledRejection', (reason) => log('unhandled rejection (the server keeps running):', reason))
}

/**
 * On SIGTERM or SIGINT: stop taking requests, let those in flight end for up to `drainMs`, run
 * `close` (settle charges, close the database), exit. Once only, however many signals come.
 */
export function stopOnSignals(server: ServerType, close: () => Promise<void>): void {
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        setTimeout(resolve, drainMs).unref()
      })
      await close()
      process.exit(0)
    })()
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
