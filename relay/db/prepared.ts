/**
 * Queries built and compiled once per dialect, then run with new values (docs/decisions/076-the-hot-path.md).
 * Kysely builds and compiles a query on every run, some ten microseconds of JavaScript each; the
 * metered relay runs a dozen and a half queries per call, which made the query builder a fifth of
 * its CPU. The statements on that path are written as prepared queries; everything else keeps
 * the plain builder.
 *
 *   const findKey = prepared((db, args: { hash: string }) =>
 *     db.selectFrom('api_keys').selectAll().where('key_hash', '=', args.hash))
 *   const { rows } = await findKey(trxOrDb, { hash })
 *
 * The properties of `args` stand for each run's values: use them only where a value goes (a
 * comparison, an inserted or updated value, a `sql` parameter), never to decide the query's
 * shape — `build` runs once, with placeholders. Constants in the query stay as written.
 * On PostgreSQL each is also a named prepared statement (db/postgres-pool.ts): planned once per
 * connection, not on every run.
 */
import type BetterSqlite3 from 'better-sqlite3'
import type { Compilable, CompiledQuery, QueryResult, UnknownRow } from 'kysely'
import { integerRows } from './integer-results.ts'
import { isPostgres, sqliteAtOnce, type Database } from './open-database.ts'
import { nameStatement } from './postgres-pool.ts'

/** Where a value of the run goes; compiled into the query's parameters, replaced on each run. */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled<R> {
  query: CompiledQuery<R>
  /** Per parameter: the argument that fills it, or undefined for a constant. */
  slots: Array<string | undefined>
}

export function prepared<A extends object, R>(build: (db: Database, args: A) => Compilable<R>): (db: Database, args: A) => Promise<QueryResult<R>> {
  const byDialect: { sqlite?: Compiled<R>; postgres?: Compiled<R> } = {}
  const compile = (db: Database): Compiled<R> => {
    const args = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as A
    const query = build(db, args).compile()
    const slots = query.parameters.map((parameter) => (parameter instanceof Slot ? parameter.name : undefined))
    if (!isPostgres(db)) return constantsWritten(query, slots)
    // PostgreSQL parses and plans it once per connection (docs/decisions/076-the-hot-path.md).
    nameStatement(query.sql)
    return { query, slots }
  }
  return (db, args) => {
    const { query, slots } = (byDialect[isPostgres(db) ? 'postgres' : 'sqlite'] ??= compile(db))
    const values = args as Record<string, unknown>
    const parameters = query.parameters.map((constant, i) => (slots[i] === undefined ? constant : values[slots[i]]))
    const sqlite = sqliteAtOnce(db)
    if (sqlite) {
      try {
        return Promise.resolve(runAtOnce<R>(sqlite, query.sql, parameters))
      } catch (error) {
        // Another process holds the write lock: Kysely's path waits for it (db/open-database.ts).
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || db.isTransaction) return Promise.reject(error as Error)
      }
    }
    return db.executeQuery<R>({ ...query, parameters })
  }
}

/**
 * SQLite: the query's constants written into its text, where Kysely binds them. SQLite compiles a
 * statement again on every run when a bound value could change its plan — a partial index's
 * condition (`status = 'normal'`), a LIMIT — and bound, those two made the settlement's read of
 * the account's package 30–70 µs a run instead of 4–6. Strings, numbers and null are written; any
 * other constant stays bound. Kysely's SQLite text quotes identifiers in double quotes and
 * strings in single ones, so a `?` outside both is a parameter.
 */
function constantsWritten<R>(query: CompiledQuery<R>, slots: Array<string | undefined>): Compiled<R> {
  let text = ''
  let quote: string | null = null
  let index = 0
  const parameters: unknown[] = []
  const kept: Array<string | undefined> = []
  for (const char of query.sql) {
    if (quote) {
      if (char === quote) quote = null
    } else if (char === "'" || char === '"') {
      quote = char
    } else if (char === '?') {
      const slot = slots[index]
      const value = query.parameters[index++]
      const literal = slot === undefined ? sqlLiteral(value) : null
      if (literal !== null) {
        text += literal
        continue
      }
      parameters.push(value)
      kept.push(slot)
    }
    text += char
  }
  return { query: { ...query, sql: text, parameters }, slots: kept }
}

function sqlLiteral(value: unknown): string | null {
  if (value === null) return 'null'
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'bigint') return String(value)
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`
  return null
}

/**
 * On SQLite, a prepared query runs on better-sqlite3 at once when nothing else holds the
 * connection, as Kysely's SQLite driver would run it, without its connection and promise chain:
 * some ten microseconds of JavaScript a statement, of which the metered relay runs a dozen and a
 * half a call (docs/decisions/076-the-hot-path.md).
 */
function runAtOnce<R>(sqlite: BetterSqlite3.Database, sql: string, parameters: readonly unknown[]): QueryResult<R> {
  const statement = sqlite.prepare(sql)
  if (statement.reader) return { rows: integerRows(statement.all(parameters) as UnknownRow[]) as R[] }
  const { changes, lastInsertRowid } = statement.run(parameters)
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
}
