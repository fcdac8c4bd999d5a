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
import { systemClock, type Clock } from './clock.ts'
import type { RelayConfig } from './config.ts'
import { useWorkerId } from './db/ids.ts'
import { migrateToLatest } from './db/migrate.ts'
import { openDatabase, type Database } from './db/open-database.ts'
import { createLogger, type Logger } from './logger.ts'
import { createLogMailer, createSmtpMailer, type Mailer } from './mail/mailer.ts'

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

export interface StartRelayOptions {
  /** Default: the system clock. Tests pass a ManualClock. */
  clock?: Clock
  /** Default: a logger at `config.logLevel` writing to stdout. */
  logger?: Logger
}

export async function startRelay(config: RelayConfig, options: StartRelayOptions = {}): Promise<Relay> {
  const logger = options.logger ?? createLogger(config.logLevel)
  if (config.workerId !== undefined) useWorkerId(config.workerId)
  const db = openDatabase(config.databaseUrl, { searchPath: config.databaseSchema })
  try {
    await migrateToLatest(db)
  } catch (error) {
    await db.destroy()
    throw error
  }
  const mailer: Mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger)
  const app = createRelayApp({ db, clock: options.clock ?? systemClock, mailer, config, logger })
  return {
    fetch: async (request, { clientIp } = {}) => app.fetch(request, { clientIp }),
    db,
    async close() {
      mailer.close()
      await db.destroy()
    },
  }
}

export { createRelayApp } from './app.ts'
export { loadRelayConfig, relayConfigSchema, ConfigError, type RelayConfig, type RelayConfigInput } from './config.ts'
export type { Clock } from './clock.ts'
export type { Logger } from './logger.ts'
