/**
 * The relay's entry for whoever runs it: the standalone server (main.ts), the portal server that
 * embeds it, and the tests.
 *
 * Embedding in-process (no socket): call `relay.fetch(request, { clientIp })` where `clientIp`
 * is the address of the peer the embedding server received the request from (its socket
 * address, or its own trusted-proxy result). The relay uses it for per-IP rate limits; with
 * `trustProxy` it still prefers the last X-Forwarded-For entry of the request. Only code in the
 * same process can pass it: nothing a remote client sends can set it.
 */
import { createRelayApp } from './app.ts'
import type { RelayConfig } from './config.ts'
import type { Database } from './db/open-database.ts'
import { openRuntime, type RuntimeOptions } from './runtime.ts'

export interface RelayFetchOptions {
  /** Address of the peer for an in-process call (see above). */
  clientIp?: string
}

export interface Relay {
  fetch(request: Request, options?: RelayFetchOptions): Promise<Response>
  db: Database
  /** Closes the database and the mail transport. */
  close(): Promise<void>
}

export type StartRelayOptions = RuntimeOptions

export async function startRelay(config: RelayConfig, options: StartRelayOptions = {}): Promise<Relay> {
  const runtime = await openRuntime(config, options)
  const app = createRelayApp(runtime.deps)
  return {
    fetch: async (request, { clientIp } = {}) => app.fetch(request, { clientIp }),
    db: runtime.deps.db,
    close: () => runtime.close(),
  }
}

export { createRelayApp } from './app.ts'
export { loadRelayConfig, relayConfigSchema, ConfigError, type RelayConfig, type RelayConfigInput } from './config.ts'
export type { Clock } from './clock.ts'
export type { Logger } from './logger.ts'
