/**
 * The PostgreSQL pool, made to survive lost connections (docs/decisions/013-the-database.md).
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
 *
 * Statements registered with `nameStatement` (db/prepared.ts registers the hot path's) are sent
 * as named prepared statements: each connection parses and plans one once, then only binds and
 * executes it (docs/decisions/076-the-hot-path.md).
 *
 * Size: `poolSize` connections per process (DATABASE_POOL_SIZE, default 10). A relayed call holds
 * one for a single statement (its freeze, docs/decisions/108-money-rules-on-postgres.md) and a settlement group one for a
 * short transaction, so a few connections serve many calls in flight; more only queue more work
 * on the database's CPUs. Every process (each of WORKERS, each relay) has its own pool: keep
 * processes × pool size under the server's max_connections (100 by default) with room for the
 * operator CLI.
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
  /** Connections at most (see above). */
  poolSize: number
  /** Told about each connection lost, so an outage shows in the log. */
  onConnectionError: (error: Error) => void
}

export function survivingPostgresPool({ connectionString, types, options, timeoutMs, poolSize, onConnectionError }: PostgresPoolOptions): PostgresPool {
  const pool = new pg.Pool({
    connectionString,
    types,
    max: poolSize,
    connectionTimeoutMillis: timeoutMs,
    // Notices a peer that vanished without a word sooner than the kernel's two hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options ? { options } : {}),
  })
  pool.on('connect', (client) => client.on('error', onConnectionError))
  // Idle clients' errors reach the pool too; the client listener above already logged them.
  pool.on('error', () => {})
  livePools.add(pool)
  return {
    connect: async () => withDeadlines(await pool.connect(), timeoutMs),
    end: () => {
      livePools.delete(pool)
      return pool.end()
    },
  }
}

/** This process's open pools, for the metrics (telemetry/relay-metrics.ts). */
const livePools = new Set<pg.Pool>()

/** Connections of this process's pools: checked out, open in total, and requests waiting for one (all 0 on SQLite). */
export function postgresPoolFigures(): { inUse: number; total: number; waiting: number } {
  const figures = { inUse: 0, total: 0, waiting: 0 }
  for (const pool of livePools) {
    figures.inUse += pool.totalCount - pool.idleCount
    figures.total += pool.totalCount
    figures.waiting += pool.waitingCount
  }
  return figures
}

/** SQL text → the name it is prepared under on every connection. */
const statementNames = new Map<string, string>()

/** Sends `sql` as a named prepared statement from now on (the text must not be built per call). */
export function nameStatement(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `relay_${statementNames.size + 1}`)
}

function withDeadlines(client: pg.PoolClient, timeoutMs: number): PostgresPoolClient {
  return {
    query: ((sqlOrCursor: unknown, parameters?: ReadonlyArray<unknown>) => {
      // Cursors (streamed reads) pace themselves: their reader decides how long a row may take.
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable)
      const timer = setTimeout(() => breakConnection(client), timeoutMs)
      const name = statementNames.get(sqlOrCursor)
      const query = name ? client.query({ name, text: sqlOrCursor, values: parameters as unknown[] }) : client.query(sqlOrCursor, parameters as unknown[])
      return query.finally(() => clearTimeout(timer))
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  }
}

/** Ends the socket under a statement that outlived its deadline: the statement fails, the client is discarded. */
function breakConnection(client: pg.PoolClient): void {
  const connection = (client as unknown as { connection?: { stream?: { destroy(error?: Error): void } } }).connection
  connection?.stream?.destroy(new Error('statement deadline exceeded: connection given up'))
}
