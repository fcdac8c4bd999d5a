/**
 * A database with history, for the benchmarks that ask whether a page or call stays as fast when
 * an account has a long past: one heavy account (BENCH_HEAVY_CALLS relayed calls, 1M by default),
 * a light one (100 calls), and for the operator console many users and redeem codes. Every seeded
 * row is written here, with the shape the relay itself writes (docs/decisions/111-bounded-history-reads.md):
 * - each call is a `proxy_calls` row; a call that reached a provider also has its settled hold and
 *   ledger rows (frozen, unfrozen, consumed), in commit order (`seq`), balances that add up, and
 *   the account's and key's running totals updated as the ledger's own writes would;
 * - calls spread over the last 60 days (inside the usage log's retention), three keys, four
 *   models, streamed or not, a few refused, failed or abandoned ones;
 * - rows go in by batches in transactions, straight through the driver: multi-row INSERTs on
 *   SQLite (hundreds of thousands of rows a second), one array parameter per column on PostgreSQL,
 *   whose secondary indexes and foreign keys are dropped for the load and restored after it
 *   (docs/decisions/140-benchmarks-on-a-seeded-history.md); derived tables (daily usage, the public and the operator console's
 *   hourly figures) are then built by the relay's own code.
 *
 * Seeding takes a while, so the result is kept and reused while its shape matches: an SQLite file
 * under bench/.data/ (git-ignored) or a PostgreSQL schema `bench_history_…` in TEST_DATABASE_URL's
 * database, named after the shape (counts and `shapeVersion`). Delete it to seed afresh
 * (`rm -r bench/.data`, `drop schema bench_history_… cascade`).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import pg from 'pg'
import { refreshOperatorStats } from '../relay/admin/overview.ts'
import { hashPassword } from '../relay/auth/passwords.ts'
import type { Clock } from '../relay/clock.ts'
import { relayConfigSchema } from '../relay/config.ts'
import { SnowflakeGenerator } from '../relay/db/ids.ts'
import { createApiKey } from '../relay/keys/service.ts'
import { createLogger } from '../relay/logger.ts'
import { rebuildUsageDays } from '../relay/points/usage-days.ts'
import { refreshPublicStats } from '../relay/public-stats/aggregate.ts'
import { openRuntime } from '../relay/runtime.ts'
import { createServices } from '../relay/create-services.ts'
import { createPackage } from '../relay/subscriptions/packages.ts'
import { createRedeemCodes, redeemCode } from '../relay/subscriptions/redeem-codes.ts'
import { insertUser } from '../relay/users/users.ts'

/** Bump when the seeded rows change, so stored databases of the old shape are not reused. */
const shapeVersion = 3
const dayMs = 86_400_000
const spanDays = 60
const models = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5', 'claude-sonnet-4-5-20250929'] as const

export interface SeedShape {
  heavyCalls: number
  lightCalls: number
  /** Extra users (operator console's search), besides the heavy and light ones. */
  users: number
  /** Redeem codes in the operator console's list. */
  codes: number
  /** Users with a package and an API key each, whose calls the relay benchmark sends. */
  crowd: number
}

export interface SeededAccount {
  username: string
  password: string
  userId: string
}

export interface SeededDatabase {
  kind: 'sqlite' | 'postgres'
  url: string
  /** PostgreSQL: the schema holding the seeded tables. */
  searchPath?: string
  heavy: SeededAccount
  light: SeededAccount
  admin: SeededAccount
  /** API keys in full: the heavy account's, and one per crowd user. */
  keys: { heavy: string; crowd: string[] }
  /** Seconds spent seeding; 0 when a stored database was reused. */
  seededSeconds: number
}

export const defaultShape: SeedShape = {
  heavyCalls: Number(process.env.BENCH_HEAVY_CALLS ?? 1_000_000),
  lightCalls: 100,
  users: Number(process.env.BENCH_USERS ?? 100_000),
  codes: Number(process.env.BENCH_CODES ?? 100_000),
  crowd: 64,
}

const password = 'bench password 1'
const accounts = { heavy: 'bench_heavy', light: 'bench_light', admin: 'bench_admin' } as const
const crowdPrefix = 'bench_crowd_'
/** Where the seed leaves the API keys it made in full (the relay keeps only their digests). */
const keysTable = 'bench_seed_keys'

/** The seeded database of `shape`, reused when one is stored, else seeded now (and stored). */
export async function seededDatabase(kind: 'sqlite' | 'postgres', shape: SeedShape = defaultShape): Promise<SeededDatabase> {
  const name = `bench_history_${shape.heavyCalls}_${shape.lightCalls}_${shape.users}_${shape.codes}_${shape.crowd}_v${shapeVersion}`
  const target = kind === 'sqlite' ? sqliteTarget(name) : await postgresTarget(name)
  const started = performance.now()
  if (!target.complete) {
    await target.reset()
    await seed(target, shape)
    await target.markComplete()
  }
  const ids = await target.userIds()
  const keys = await target.keys()
  const account = (key: keyof typeof accounts): SeededAccount => ({ username: accounts[key], password, userId: ids.get(accounts[key])! })
  return {
    kind,
    url: target.url,
    ...(target.searchPath ? { searchPath: target.searchPath } : {}),
    heavy: account('heavy'),
    light: account('light'),
    admin: account('admin'),
    keys: { heavy: keys.get(accounts.heavy)!, crowd: [...keys].filter(([username]) => username.startsWith(crowdPrefix)).map(([, key]) => key) },
    seededSeconds: target.complete ? 0 : (performance.now() - started) / 1000,
  }
}

/** Raw rows in: the driver's own multi-row INSERT, no query builder per row. */
interface Target {
  url: string
  searchPath?: string
  complete: boolean
  reset(): Promise<void>
  markComplete(): Promise<void>
  userIds(): Promise<Map<string, string>>
  /** Username → the API key the seed made for them. */
  keys(): Promise<Map<string, string>>
  /**
   * Drops the secondary indexes and foreign keys of `tables` for a bulk load and returns what
   * restores them (PostgreSQL: one sorted build per index, one join per foreign key, instead of
   * millions of insertions and lookups; restoring checks the loaded rows as the row-by-row writes
   * would have, a unique index its keys, a foreign key its references). SQLite loads fast enough as is.
   */
  deferIndexes(tables: readonly string[]): Promise<() => Promise<void>>
  /** Runs `fn` in one transaction; `insert` appends rows of one table. */
  transaction(fn: (insert: (table: string, columns: readonly string[], rows: unknown[][]) => Promise<void>) => Promise<void>): Promise<void>
  run(statement: string, params?: unknown[]): Promise<void>
}

function sqliteTarget(name: string): Target {
  const dir = join(import.meta.dirname, '.data')
  const url = join(dir, `${name}.sqlite`)
  const marker = `${url}.complete`
  let handle: BetterSqlite3.Database | null = null
  const open = () => {
    if (handle) return handle
    handle = new BetterSqlite3(url)
    // Bulk loading: a crash loses the seed, which is then redone (no `.complete` marker).
    handle.pragma('journal_mode = WAL')
    handle.pragma('synchronous = OFF')
    handle.pragma('cache_size = -262144')
    return handle
  }
  const statements = new Map<string, BetterSqlite3.Statement>()
  return {
    url,
    complete: existsSync(marker) && existsSync(url),
    async reset() {
      mkdirSync(dir, { recursive: true })
      for (const suffix of ['', '-wal', '-shm', '.complete']) rmSync(`${url}${suffix}`, { force: true })
    },
    async markComplete() {
      handle?.close()
      handle = null
      writeFileSync(marker, new Date().toISOString())
    },
    async userIds() {
      const db = new BetterSqlite3(url, { readonly: true })
      try {
        const rows = db.prepare(`select id, username from users where username in (?, ?, ?)`).safeIntegers(true).all(...Object.values(accounts)) as Array<{ id: bigint; username: string }>
        return new Map(rows.map((row) => [row.username, row.id.toString()]))
      } finally {
        db.close()
      }
    },
    async keys() {
      const db = new BetterSqlite3(url, { readonly: true })
      try {
        const rows = db.prepare(`select username, api_key from ${keysTable} order by username`).all() as Array<{ username: string; api_key: string }>
        return new Map(rows.map((row) => [row.username, row.api_key]))
      } finally {
        db.close()
      }
    },
    async deferIndexes() {
      return async () => {}
    },
    async transaction(fn) {
      const db = open()
      db.exec('begin')
      try {
        await fn(async (table, columns, rows) => {
          // 32,766 parameters at most per statement; full chunks reuse one prepared statement.
          const perStatement = Math.floor(30_000 / columns.length)
          for (let start = 0; start < rows.length; start += perStatement) {
            const chunk = rows.slice(start, start + perStatement)
            const text = `insert into ${table} (${columns.join(', ')}) values ${chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')}`
            let statement = statements.get(text)
            if (!statement) statements.set(text, (statement = db.prepare(text)))
            statement.run(...chunk.flat())
          }
        })
        db.exec('commit')
      } catch (error) {
        db.exec('rollback')
        throw error
      }
    },
    async run(statement, params = []) {
      open()
        .prepare(statement)
        .run(...params)
    },
  }
}

async function postgresTarget(name: string): Promise<Target> {
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('BENCH_DATABASE=postgres needs TEST_DATABASE_URL')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const found = await client.query(`select 1 from information_schema.tables where table_schema = $1 and table_name = 'bench_seed_complete'`, [name])
  // This connection seeds; a stored seed is read by clients of their own, and left open it would keep the benchmark's process from exiting.
  if (found.rowCount === 1) await client.end()
  const typesOf = new Map<string, Map<string, string>>()
  const columnTypes = async (table: string) => {
    let types = typesOf.get(table)
    if (!types) {
      const { rows } = await client.query<{ column: string; type: string }>(
        `select attname as column, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped`,
        [`${name}.${table}`],
      )
      typesOf.set(table, (types = new Map(rows.map((row) => [row.column, row.type]))))
    }
    return types
  }
  const numbered = (statement: string) => {
    let n = 0
    return statement.replaceAll('?', () => `$${++n}`)
  }
  return {
    url,
    searchPath: name,
    complete: found.rowCount === 1,
    async reset() {
      await client.query(`drop schema if exists ${name} cascade`)
      await client.query(`create schema ${name}`)
      await client.query(`set search_path to ${name}`)
    },
    async markComplete() {
      await client.query(`create table ${name}.bench_seed_complete (at timestamptz not null default now())`)
      await client.end()
    },
    async userIds() {
      const reader = new pg.Client({ connectionString: url })
      await reader.connect()
      try {
        const { rows } = await reader.query<{ id: string; username: string }>(`select id::text, username from ${name}.users where username = any($1)`, [Object.values(accounts)])
        return new Map(rows.map((row) => [row.username, row.id]))
      } finally {
        await reader.end()
      }
    },
    async keys() {
      const reader = new pg.Client({ connectionString: url })
      await reader.connect()
      try {
        const { rows } = await reader.query<{ username: string; api_key: string }>(`select username, api_key from ${name}.${keysTable} order by username`)
        return new Map(rows.map((row) => [row.username, row.api_key]))
      } finally {
        await reader.end()
      }
    },
    async deferIndexes(tables) {
      const { rows: indexes } = await client.query<{ name: string; definition: string }>(
        `select i.indexname as name, i.indexdef as definition from pg_indexes i
         where i.schemaname = $1 and i.tablename = any($2)
           and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = $1::regnamespace)`,
        [name, tables],
      )
      const { rows: keys } = await client.query<{ table: string; name: string; definition: string }>(
        `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
         where connamespace = $1::regnamespace and contype = 'f' and conrelid = any($2::regclass[])`,
        [name, tables.map((table) => `${name}.${table}`)],
      )
      for (const key of keys) await client.query(`alter table ${key.table} drop constraint ${key.name}`)
      for (const index of indexes) await client.query(`drop index ${name}.${index.name}`)
      return async () => {
        await client.query(`set maintenance_work_mem = '256MB'`)
        for (const index of indexes) await client.query(index.definition)
        for (const key of keys) await client.query(`alter table ${key.table} add constraint ${key.name} ${key.definition}`)
      }
    },
    async transaction(fn) {
      await client.query('begin')
      try {
        await fn(async (table, columns, rows) => {
          // One array parameter per column, unnested server-side: one short statement per batch,
          // where a multi-row VALUES of as many parameters spends most of its time being parsed.
          const types = await columnTypes(table)
          const text = `insert into ${table} (${columns.join(', ')}) select * from unnest(${columns.map((column, i) => `$${i + 1}::${types.get(column)}[]`).join(', ')})`
          await client.query(text, columns.map((_, i) => rows.map((row) => (typeof row[i] === 'bigint' ? row[i].toString() : row[i]))))
        })
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw error
      }
    },
    async run(statement, params = []) {
      await client.query(numbered(statement), params.map((value) => (typeof value === 'bigint' ? value.toString() : value)))
    },
  }
}

/** A small deterministic generator: the same shape gives the same rows. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

async function seed(target: Target, shape: SeedShape): Promise<void> {
  const now = Date.now()
  const start = now - spanDays * dayMs
  // The relay's own code for what has rules (users, package, redeem, keys), on a clock set back to
  // before the history, so the subscription and keys predate every call.
  let clockNow = start - dayMs
  const clock: Clock = { now: () => clockNow }
  const config = relayConfigSchema.parse({ databaseUrl: target.url, databaseSchema: target.searchPath, jwtSecrets: ['bench-jwt-secret-0123456789abcdef0123456789abcdef'], logLevel: 'error' })
  let runtime = await openRuntime(config, { logger: createLogger('error'), clock })
  const services = createServices(runtime.deps)
  const { db } = services
  const passwordHash = await hashPassword(password, 10)
  const heavy = await insertUser(db, clockNow, { username: accounts.heavy, email: 'heavy@bench.test', passwordHash })
  const light = await insertUser(db, clockNow, { username: accounts.light, email: 'light@bench.test', passwordHash })
  await insertUser(db, clockNow, { username: accounts.admin, email: 'admin@bench.test', passwordHash, userType: 'admin' })
  await createPackage(db, clockNow, { code: 'BENCHHISTORY', name: 'bench', kind: 'personal', points_limit: 100_000_000, hour_points: 0, validity_days: 3650 })
  const { codes } = await createRedeemCodes(db, clockNow, { packageCode: 'BENCHHISTORY', count: 2 + shape.crowd })
  const pkg = await db.selectFrom('packages').select('id').where('code', '=', 'BENCHHISTORY').executeTakeFirstOrThrow()
  const seeded: Array<{ userId: string; calls: number; seed: number }> = [
    { userId: heavy.id, calls: shape.heavyCalls, seed: 1 },
    { userId: light.id, calls: shape.lightCalls, seed: 2 },
  ]
  const keysOf = new Map<string, string[]>()
  const fullKeys: Array<[string, string]> = []
  for (const [i, { userId }] of seeded.entries()) {
    await redeemCode(services, { userId, clientIp: '127.0.0.1' }, codes[i]!.replaceAll('-', ''))
    const keys: string[] = []
    for (const name of ['laptop', 'ci', 'server']) {
      const key = await createApiKey(db, clock, userId, name)
      keys.push(key.id)
      if (userId === heavy.id && name === 'laptop') fullKeys.push([accounts.heavy, key.key])
    }
    keysOf.set(userId, keys)
  }
  for (let i = 0; i < shape.crowd; i++) {
    const username = `${crowdPrefix}${String(i).padStart(2, '0')}`
    const user = await insertUser(db, clockNow, { username, email: `${username}@bench.test`, passwordHash })
    await redeemCode(services, { userId: user.id, clientIp: '127.0.0.1' }, codes[2 + i]!.replaceAll('-', ''))
    fullKeys.push([username, (await createApiKey(db, clock, user.id, 'cli')).key])
  }
  await db.schema.createTable(keysTable).addColumn('username', 'varchar(64)', (col) => col.primaryKey()).addColumn('api_key', 'varchar(128)', (col) => col.notNull()).execute()
  await sql`insert into ${sql.table(keysTable)} (username, api_key) values ${sql.join(fullKeys.map(([u, k]) => sql`(${u}, ${k})`))}`.execute(db)
  await runtime.close()

  const timings: string[] = []
  const timed = async (what: string, fn: () => Promise<void>) => {
    const t0 = performance.now()
    await fn()
    timings.push(`${what} ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
  const rebuildIndexes = await target.deferIndexes(['proxy_calls', 'points_holds', 'points_ledger', 'users', 'redeem_codes'])
  for (const account of seeded) await timed(`${account.calls} calls`, () => seedCalls(target, account.userId, keysOf.get(account.userId)!, account.calls, start, now, account.seed))
  await timed(`${shape.users} users`, () => seedUsers(target, shape.users, start))
  await timed(`${shape.codes} codes`, () => seedCodes(target, shape.codes, pkg.id, start))
  await timed('indexes', rebuildIndexes)
  // Statistics for the planner, as a database that grew by itself would have.
  await target.run('analyze')

  // Derived rows, by the code that keeps them.
  clockNow = now
  runtime = await openRuntime(config, { logger: createLogger('error'), clock })
  await timed('daily usage', () => rebuildUsageDays(runtime.deps.db))
  await timed('public figures', async () => void (await refreshPublicStats({ db: runtime.deps.db, clock })))
  await timed('operator figures', async () => void (await refreshOperatorStats({ db: runtime.deps.db, clock })))
  await runtime.close()
  console.error(`seeded: ${timings.join(', ')}`)
}

const callColumns = [
  'id', 'user_id', 'key_id', 'client_id', 'provider_id', 'api', 'model', 'streamed', 'outcome', 'status', 'input_tokens', 'output_tokens', 'cache_read_tokens',
  'cache_write_tokens', 'points', 'shortfall_points', 'client_ip', 'create_timestamp', 'duration_ms', 'refusal', 'first_byte_ms', 'hold_id', 'relay_ms',
] as const
const holdColumns = ['id', 'account_id', 'user_id', 'amount', 'model', 'create_timestamp', 'settled_timestamp', 'owner'] as const
const ledgerColumns = ['id', 'account_id', 'user_id', 'type', 'change', 'balance_after', 'model', 'reason', 'hold_id', 'create_timestamp', 'seq'] as const

/**
 * `count` calls of one user, one after the other (each settles before the next starts, so ledger
 * times follow `seq`), between `from` and `to`; then the account's and keys' running totals.
 */
async function seedCalls(target: Target, userId: string, keyIds: string[], count: number, from: number, to: number, seed: number): Promise<void> {
  if (count === 0) return
  const reader = await readAccount(target, userId)
  let { balance, entries, consumed } = reader
  const next = random(seed)
  let at = from
  const ids = new SnowflakeGenerator(1020 - seed, () => at) // a worker of its own per account: the accounts' calls share times
  const gap = (to - from) / count
  const keyPoints = new Map<string, number>()
  const batch = 20_000
  for (let done = 0; done < count; ) {
    const calls: unknown[][] = []
    const holds: unknown[][] = []
    const ledger: unknown[][] = []
    for (const end = Math.min(count, done + batch); done < end; done++) {
      const began = Math.floor(from + done * gap)
      const durationMs = Math.max(1, Math.floor(next() * gap * 0.8))
      const roll = next()
      const outcome = roll < 0.03 ? 'refused' : roll < 0.05 ? 'failed' : roll < 0.06 ? 'abandoned' : 'completed'
      const model = models[Math.floor(next() * next() * models.length)]!
      const keyId = keyIds[Math.floor(next() * next() * keyIds.length)]!
      const input = outcome === 'refused' ? 0 : 200 + Math.floor(next() * 20_000)
      const output = outcome === 'completed' || outcome === 'abandoned' ? 20 + Math.floor(next() * 2_000) : 0
      const cacheRead = outcome === 'refused' ? 0 : Math.floor(next() * next() * 100_000)
      const points = outcome === 'completed' || outcome === 'abandoned' ? Math.max(1, Math.round((input * 3 + output * 15 + cacheRead * 0.3) / 1000)) : 0
      at = began
      const callId = ids.next()
      let holdId: string | null = null
      if (outcome !== 'refused') {
        holdId = ids.next()
        const reserve = points + 20 + Math.floor(next() * 60)
        holds.push([BigInt(holdId), BigInt(reader.accountId), BigInt(userId), reserve, model, began, began + durationMs, 'bench'])
        ledger.push([BigInt(ids.next()), BigInt(reader.accountId), BigInt(userId), 'frozen', -reserve, balance - reserve, model, null, BigInt(holdId), began, ++entries])
        at = began + durationMs
        ledger.push([BigInt(ids.next()), BigInt(reader.accountId), BigInt(userId), 'unfrozen', reserve, balance, model, null, BigInt(holdId), at, ++entries])
        if (points > 0) {
          balance -= points
          consumed += points
          keyPoints.set(keyId, (keyPoints.get(keyId) ?? 0) + points)
          ledger.push([BigInt(ids.next()), BigInt(reader.accountId), BigInt(userId), 'consumed', -points, balance, model, null, BigInt(holdId), at, ++entries])
        }
      }
      const status = outcome === 'refused' ? 429 : outcome === 'failed' ? 502 : 200
      const refusal = outcome === 'refused' ? 'key_rate_limited' : null
      const firstByte = outcome === 'completed' || outcome === 'abandoned' ? Math.min(durationMs, 300 + Math.floor(next() * 2000)) : null
      calls.push([
        BigInt(callId), BigInt(userId), BigInt(keyId), null, null, 'anthropic', model, next() < 0.8 ? 1 : 0, outcome, status, input, output, cacheRead, 0, points, 0,
        `203.0.113.${1 + (done % 3)}`, began, durationMs, refusal, firstByte, holdId === null ? null : BigInt(holdId), 1 + Math.floor(next() * 3),
      ])
    }
    await target.transaction(async (insert) => {
      await insert('points_holds', holdColumns, holds)
      await insert('points_ledger', ledgerColumns, ledger)
      await insert('proxy_calls', callColumns, calls)
    })
  }
  await target.run(`update points_accounts set balance = ?, entries = ?, consumed = ?, last_entry_timestamp = ? where id = ?`, [balance, entries, consumed, at, BigInt(reader.accountId)])
  for (const [keyId, used] of keyPoints) await target.run(`update api_keys set points_used = ?, last_used_timestamp = ? where id = ?`, [used, at, BigInt(keyId)])
}

async function readAccount(target: Target, userId: string): Promise<{ accountId: string; balance: number; entries: number; consumed: number }> {
  const config = relayConfigSchema.parse({ databaseUrl: target.url, databaseSchema: target.searchPath, jwtSecrets: ['bench-jwt-secret-0123456789abcdef0123456789abcdef'], logLevel: 'error' })
  const runtime = await openRuntime(config, { logger: createLogger('error') })
  try {
    const row = await runtime.deps.db
      .selectFrom('points_accounts')
      .innerJoin('subscriptions', 'subscriptions.id', 'points_accounts.subscription_id')
      .select(['points_accounts.id', 'balance', 'entries', 'consumed'])
      .where('subscriptions.user_id', '=', userId)
      .executeTakeFirstOrThrow()
    return { accountId: row.id, balance: row.balance, entries: row.entries, consumed: row.consumed }
  } finally {
    await runtime.close()
  }
}

const userColumns = ['id', 'username', 'email', 'password_hash', 'user_type', 'status', 'invite_code', 'token_version', 'create_timestamp', 'update_timestamp'] as const

/** Users who never signed in (no password matches `!`), a few of them disabled or VIP. */
async function seedUsers(target: Target, count: number, from: number): Promise<void> {
  let at = from
  const ids = new SnowflakeGenerator(1022, () => at)
  const next = random(3)
  for (let done = 0; done < count; ) {
    const rows: unknown[][] = []
    for (const end = Math.min(count, done + 20_000); done < end; done++) {
      at = from + Math.floor((done * spanDays * dayMs) / count)
      const n = String(done).padStart(6, '0')
      const roll = next()
      rows.push([BigInt(ids.next()), `user${n}`, `user${n}@example.com`, '!', roll < 0.05 ? 'vip' : 'normal', roll > 0.99 ? 'disabled' : 'active', `BU${n}`, 0, at, at])
    }
    await target.transaction((insert) => insert('users', userColumns, rows))
  }
}

const codeColumns = ['id', 'code_hash', 'package_id', 'expires_timestamp', 'used_by', 'used_timestamp', 'subscription_id', 'batch_id', 'revoked_timestamp', 'create_timestamp'] as const

/** Codes in batches of 500: most unused, some expired or revoked (used ones need subscriptions, which the users above lack). */
async function seedCodes(target: Target, count: number, packageId: string, from: number): Promise<void> {
  let at = from
  const ids = new SnowflakeGenerator(1021, () => at)
  const next = random(4)
  let batchId = ''
  for (let done = 0; done < count; ) {
    const rows: unknown[][] = []
    for (const end = Math.min(count, done + 20_000); done < end; done++) {
      at = from + Math.floor((done * spanDays * dayMs) / count)
      if (done % 500 === 0) batchId = ids.next()
      const roll = next()
      const expires = roll < 0.1 ? at + 7 * dayMs : null
      const revoked = roll > 0.95 ? at + dayMs : null
      rows.push([BigInt(ids.next()), createHash('sha256').update(`bench code ${done}`).digest('hex'), BigInt(packageId), expires, null, null, null, BigInt(batchId), revoked, at])
    }
    await target.transaction((insert) => insert('redeem_codes', codeColumns, rows))
  }
}
