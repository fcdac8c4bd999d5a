/**
 * One `Database` type over SQLite (better-sqlite3) and PostgreSQL (pg), chosen by URL.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, SqliteDriver } from 'kysely'
import type { DatabaseConnection, DialectAdapter, QueryResult, SqliteDialectConfig, TransactionSettings } from 'kysely'
import pg from 'pg'
import { integerValue } from '../contract/json.ts'
import { IntegerResultsPlugin } from './integer-results.ts'
import { survivingPostgresPool } from './postgres-pool.ts'
import { checkpointInBackground, type WalCheckpoints } from './wal-checkpoints.ts'
import type { Tables } from './schema.ts'

export type Database = Kysely<Tables>

export interface OpenDatabaseOptions {
  /**
   * PostgreSQL only: run every connection with this `search_path`, so a test suite can live in
   * its own schema. The schema must exist.
   */
  searchPath?: string
  /** PostgreSQL only: longest wait for a connection and for one statement (default 10 s). */
  timeoutMs?: number
  /** PostgreSQL only: connections at most (default 10; db/postgres-pool.ts says how to size it). */
  poolSize?: number
  /** PostgreSQL only: told about each lost connection (default: a warning on stderr). */
  onConnectionError?: (error: Error) => void
  /**
   * PostgreSQL only: a relayed call's freeze and settlement commit without waiting for the disk
   * (DATABASE_ASYNC_COMMIT, docs/decisions/108-money-rules-on-postgres.md); off by default.
   */
  asyncCommit?: boolean
  /** PostgreSQL only: longest wait of a statement for a lock (`lock_timeout`); default none. */
  lockTimeoutMs?: number
  /**
   * SQLite file only: WAL checkpoints on a thread of their own (db/wal-checkpoints.ts), told
   * here if that thread fails; the relay server's choice, not a short-lived CLI's.
   */
  onCheckpointFailure?: (error: Error) => void
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url)
}

/** `url` is `postgres://…`, `:memory:`, or an SQLite file path (its folder is created). */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  const dialect = isPostgresUrl(url) ? postgresDialect(url, options) : sqliteDialect(url, options)
  return new Kysely<Tables>({ dialect, plugins: [new IntegerResultsPlugin()] })
}

/** For the few statements that differ, such as row locks (`FOR UPDATE` exists only on PostgreSQL). */
export function isPostgres(db: Database): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** A UNIQUE or PRIMARY KEY constraint rejected the write, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

function sqliteDialect(path: string, { onCheckpointFailure }: OpenDatabaseOptions): SqliteDialect {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const database = new BetterSqlite3(path)
  database.pragma('journal_mode = WAL')
  // No waiting inside SQLite: its busy handler sleeps the thread, which is Node's event loop.
  // A locked database is waited for between retries instead (PatientConnection).
  database.pragma('busy_timeout = 0')
  database.pragma('foreign_keys = ON')
  database.pragma('synchronous = NORMAL')
  // Every INTEGER comes back as a BigInt; IntegerResultsPlugin turns it into a number or string.
  database.defaultSafeIntegers(true)
  reusePreparedStatements(database)
  const checkpoints = onCheckpointFailure && path !== ':memory:' ? checkpointInBackground(database, onCheckpointFailure) : null
  return new ImmediateSqliteDialect({ database }, database, checkpoints)
}

/** A Kysely instance's SQLite database and driver, by its adapter (shared by its transactions). */
const sqliteUnder = new WeakMap<DialectAdapter, { database: BetterSqlite3.Database; driver: ImmediateSqliteDriver }>()

/**
 * The better-sqlite3 database under `db`, when a statement may run on it at once, bypassing
 * Kysely's connection and promise chain (db/prepared.ts): `db` is a transaction, whose connection
 * its caller holds, or no query holds the one connection now. Null on PostgreSQL or while another
 * query holds the connection. A statement run so runs whole before anything else can, as
 * better-sqlite3 is synchronous.
 */
export function sqliteAtOnce(db: Database): BetterSqlite3.Database | null {
  const under = sqliteUnder.get(db.getExecutor().adapter)
  if (!under) return null
  return db.isTransaction || !under.driver.lent ? under.database : null
}

/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely prepares every query; the
 * metered relay runs the same few dozen statements on every call, so compiled statements are
 * kept (bounded) and reused. Safe because better-sqlite3 runs each statement to completion
 * synchronously, and SQLite recompiles a kept statement by itself after a schema change.
 */
function reusePreparedStatements(database: BetterSqlite3.Database, limit = 500): void {
  const prepare = database.prepare.bind(database)
  const kept = new Map<string, BetterSqlite3.Statement>()
  database.prepare = ((sql: string) => {
    let statement = kept.get(sql)
    if (!statement) {
      statement = prepare(sql)
      if (kept.size >= limit) kept.delete(kept.keys().next().value!)
      kept.set(sql, statement)
    }
    return statement
  }) as typeof database.prepare
}

/**
 * Transactions on SQLite start with BEGIN IMMEDIATE: the write lock is taken up front, so a
 * transaction that reads and then writes cannot fail with SQLITE_BUSY halfway when another
 * process (the operator CLI, a second relay) holds the lock; it waits for the lock instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig
  readonly #database: BetterSqlite3.Database
  readonly #driver: ImmediateSqliteDriver

  constructor(config: SqliteDialectConfig, database: BetterSqlite3.Database, checkpoints: WalCheckpoints | null) {
    super(config)
    this.#config = config
    this.#database = database
    this.#driver = new ImmediateSqliteDriver(this.#config, checkpoints)
  }

  override createDriver(): SqliteDriver {
    return this.#driver
  }

  override createAdapter(): DialectAdapter {
    const adapter = super.createAdapter()
    sqliteUnder.set(adapter, { database: this.#database, driver: this.#driver })
    return adapter
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  /** Whether the one connection is inside a transaction: it may then be lent to nobody else. */
  #inTransaction = false
  /** Whether a query or transaction holds the one connection (`sqliteAtOnce`). */
  lent = false
  readonly #checkpoints: WalCheckpoints | null

  constructor(config: SqliteDialectConfig, checkpoints: WalCheckpoints | null) {
    super(config)
    this.#checkpoints = checkpoints
  }

  /** The checkpoint thread first: the last connection to close checkpoints and removes the log. */
  override async destroy(): Promise<void> {
    await this.#checkpoints?.stop()
    await super.destroy()
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection()
    this.lent = true
    return new PatientConnection(connection, (ms) => this.#pause(ms))
  }

  override async releaseConnection(): Promise<void> {
    this.lent = false
    await super.releaseConnection()
  }

  override async beginTransaction(connection: DatabaseConnection, _settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
    this.#inTransaction = true
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
    this.#inTransaction = false
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.#inTransaction = false
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  /**
   * Waits `ms` before a statement is tried again. Outside a transaction the connection is lent to
   * the process's other queries meanwhile (SQLite has one connection per process, and reads do
   * not need the lock); inside one it is kept, as its statements must not interleave with others.
   */
  async #pause(ms: number): Promise<void> {
    if (this.#inTransaction) return sleep(ms)
    await this.releaseConnection()
    await sleep(ms)
    await super.acquireConnection()
    this.lent = true
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** How long a statement waits for another process's write lock before the call gets a retryable 503. */
const sqliteLockWaitMs = 5000

/**
 * Waits for SQLite's write lock without blocking the event loop (docs/decisions/013-the-database.md): a statement
 * refused with SQLITE_BUSY (another process — the operator CLI, a second relay — holds the lock)
 * is tried again after a pause, doubling up to 100 ms, for up to `sqliteLockWaitMs`; then the
 * SQLITE_BUSY goes up and the call is answered 503. Safe to repeat: a statement refused with
 * SQLITE_BUSY did nothing, and a refused COMMIT leaves its transaction open to retry.
 */
class PatientConnection implements DatabaseConnection {
  readonly #connection: DatabaseConnection
  readonly #pause: (ms: number) => Promise<void>

  constructor(connection: DatabaseConnection, pause: (ms: number) => Promise<void>) {
    this.#connection = connection
    this.#pause = pause
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = performance.now() + sqliteLockWaitMs
    for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
      try {
        return await this.#connection.executeQuery<R>(query)
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || performance.now() + pause > deadline) throw error
        await this.#pause(pause)
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#connection.streamQuery<R>(query, chunkSize)
  }
}

const int8Oid = 20
const numericOid = 1700

function postgresDialect(connectionString: string, { searchPath, timeoutMs = 10_000, poolSize = 10, onConnectionError = warnConnectionLost, asyncCommit = false, lockTimeoutMs }: OpenDatabaseOptions): PostgresDialect {
  // Per-pool parsers, never pg.types.setTypeParser: that would change every pool in the process.
  const types = new pg.TypeOverrides()
  types.setTypeParser(int8Oid, (text: string) => integerValue(text))
  types.setTypeParser(numericOid, (text: string) => (/^-?\d+$/.test(text) ? integerValue(text) : text))
  // relay.async_commit is read by relay_settle (relay/points/relay_settle.sql) alone.
  const settings = [
    searchPath ? `-c search_path=${quoteIdentifier(searchPath)}` : null,
    asyncCommit ? '-c relay.async_commit=on' : null,
    lockTimeoutMs !== undefined ? `-c lock_timeout=${Math.trunc(lockTimeoutMs)}` : null,
  ].filter(Boolean)
  const options = settings.length > 0 ? settings.join(' ') : undefined
  return new PostgresDialect({ pool: survivingPostgresPool({ connectionString, types, options, timeoutMs, poolSize, onConnectionError }) })
}

function warnConnectionLost(error: Error): void {
  console.warn(`database connection lost: ${error.message}`)
}

function quoteIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid schema name: ${name}`)
  return name
}
