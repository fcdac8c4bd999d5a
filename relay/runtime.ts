/** Opens what the relay runs on, for the server (index.ts) and the operator CLI alike. */
import { systemClock, type Clock } from './clock.ts'
import type { RelayConfig } from './config.ts'
import { useWorkerId } from './db/ids.ts'
import { migrateAtStart } from './db/migrate.ts'
import { openDatabase } from './db/open-database.ts'
import { createLogger, type Logger } from './logger.ts'
import { createLogMailer, createSmtpMailer } from './mail/mailer.ts'
import type { RelayDeps } from './services.ts'

export interface RuntimeOptions {
  /** Default: the system clock. Tests pass a ManualClock. */
  clock?: Clock
  /** Default: a logger at `config.logLevel` writing to stdout. */
  logger?: Logger
  /** The relay server's runtime, not a short-lived CLI's: on SQLite, WAL checkpoints on a thread of their own (db/wal-checkpoints.ts). */
  server?: boolean
}

export interface Runtime {
  deps: RelayDeps
  /** Closes the database and the mail transport. */
  close(): Promise<void>
}

/** Opens the database and brings its schema up to date, and builds the mailer. */
export async function openRuntime(config: RelayConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.logLevel)
  if (config.workerId !== undefined) useWorkerId(config.workerId)
  const connection = {
    searchPath: config.databaseSchema,
    onConnectionError: (error: Error) => logger.warn('database connection lost', { error: error.message }),
  }
  const db = openDatabase(config.databaseUrl, {
    ...connection,
    timeoutMs: config.databaseTimeoutMs,
    poolSize: config.databasePoolSize,
    asyncCommit: config.databaseAsyncCommit,
    onCheckpointFailure: options.server ? (error) => logger.error('the SQLite checkpoint thread failed; checkpoints are back on the main thread', { error: error.message }) : undefined,
  })
  try {
    await migrateAtStart(db, config.databaseUrl, connection, {
      onLockConflict: (attempt, reason, pauseMs) => logger.warn('database migration gave way to live calls; trying again', { attempt, reason, pauseMs }),
    })
  } catch (error) {
    await db.destroy()
    throw error
  }
  const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger)
  return {
    deps: { db, clock: options.clock ?? systemClock, mailer, config, logger },
    async close() {
      mailer.close()
      await db.destroy()
    },
  }
}
