/**
 * The PostgreSQL pool, made to survive lost connections (docs/decisions/078-surviving-the-database.md).
 *
 * pg emits `'error'` on a client whose connection dies (a server restart, a failover,
 * `pg_terminate_backend`, a proxy's idle timeout). With no listener that event ends the process,
 * so every client gets one from the moment it connects, whether it sits idle in the pool or is
 * checked out between two statements of a transaction. A dead client is never reused: pg-pool
 * discards a client that is no longer queryable when it is released.
 *
 * A connection whose packets vanish (a network cut, a black hole) would leave its statement
 * waiting for the kernel to give up, minutes later. Each statement therefore has a deadline; past
 * it the client's socket is destroyed, which fails the statement (and its transaction, which
 * PostgreSQL rolls back) and keeps the client from being reused. New connections have the same
 * deadline to be made.
 */
import pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'

export interface PostgresPoolOptions {
  connectionString: string
  types: pg.CustomTypesConfig
  /** Connection options, e.g. `-c search_path=…`. */
  options?: string
  /** Longest wait for a connection and for one statement's answer. */
  timeoutMs: number
  /** Told about each connection lost, so an outage shows in the log. */
  onConnectionError: (error: Error) => void
}

export function survivingPostgresPool({ connectionString, types, options, timeoutMs, onConnectionError }: PostgresPoolOptions): PostgresPool {
  const pool = new pg.Pool({
    connectionString,
    types,
    max: 10,
    connectionTimeoutMillis: timeoutMs,
    // Notices a peer that vanished without a word sooner than the kernel's two hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options ? { options } : {}),
  })
  pool.on('connect', (client) => client.on('error', onConnectionError))
  // Idle clients' errors reach the pool too; the client listener above already logged them.
  pool.on('error', () => {})
  return {
    connect: async () => withDeadlines(await pool.connect(), timeoutMs),
    end: () => pool.end(),
  }
}

function withDeadlines(client: pg.PoolClient, timeoutMs: number): PostgresPoolClient {
  return {
    query: ((sqlOrCursor: unknown, parameters?: ReadonlyArray<unknown>) => {
      // Cursors (streamed reads) pace themselves: their reader decides how long a row may take.
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable)
      const timer = setTimeout(() => breakConnection(client), timeoutMs)
      return client.query(sqlOrCursor, parameters as unknown[]).finally(() => clearTimeout(timer))
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  }
}

/** Ends the socket under a statement that outlived its deadline: the statement fails, the client is discarded. */
function breakConnection(client: pg.PoolClient): void {
  const connection = (client as unknown as { connection?: { stream?: { destroy(error?: Error): void } } }).connection
  connection?.stream?.destroy(new Error('statement deadline exceeded: connection given up'))
}
