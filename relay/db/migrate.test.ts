import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { applyFunctions, functionDefinitions } from './functions.ts'
import { migrateAtStart, migrateToLatest } from './migrate.ts'
import { openDatabase, type Database } from './open-database.ts'
import { elapse } from '../../tests/fixtures/time.ts'

/** Kysely's migration lock on PostgreSQL: an advisory lock, held by a relay while it migrates. */
const kyselyMigrationLock = '3853314791062309107'

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const giveUp = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > giveUp) throw new Error('condition not met in time')
    await elapse(20)
  }
}

// A relay starting with new migrations while others serve on the same PostgreSQL (a rolling upgrade).
describeOnPostgres('migrating at start beside live relays', () => {
  let testDb: TestDatabase
  let db: Database
  let other: pg.Client

  beforeEach(async () => {
    testDb = await createTestDatabase('postgres')
    // The relay's own pool, with a short statement deadline (DATABASE_TIMEOUT_MS).
    db = openDatabase(testDb.url, { searchPath: testDb.searchPath, timeoutMs: 500 })
    await migrateToLatest(db)
    // Another relay's session.
    other = new pg.Client({ connectionString: testDb.url, options: `-c search_path=${testDb.searchPath}` })
    await other.connect()
  })
  afterEach(async () => {
    await other.end()
    await db.destroy()
    await testDb.dispose()
  })

  it('gives way to a transaction holding a lock it needs, and migrates once that ends', async () => {
    await other.query('begin')
    await other.query('lock table kysely_migration in access exclusive mode')
    const conflicts: string[] = []
    const migrated = migrateAtStart(db, testDb.url, { searchPath: testDb.searchPath }, { lockTimeoutMs: 200, onLockConflict: (_attempt, reason) => conflicts.push(reason) })
    await until(() => conflicts.length >= 2)
    await other.query('commit')
    await expect(migrated).resolves.toBeUndefined()
    expect(conflicts[0]).toMatch(/lock timeout/)
    // The relay's pool is untouched by the migration's lock_timeout.
    const { rows } = await other.query<{ setting: string }>(`select setting from pg_settings where name = 'lock_timeout'`)
    expect(rows[0]!.setting).toBe('0')
  })

  it('waits for another relay migrating first, longer than a statement of its own may take', async () => {
    await other.query(`select pg_advisory_lock(${kyselyMigrationLock})`)
    let done = false
    const migrated = migrateAtStart(db, testDb.url, { searchPath: testDb.searchPath }).then(() => (done = true))
    // Three of the pool's statement deadlines.
    await elapse(1_500)
    expect(done).toBe(false)
    await other.query(`select pg_advisory_unlock(${kyselyMigrationLock})`)
    await migrated
    expect(done).toBe(true)
  })

  it('fails the start on any other error, at once', async () => {
    // A migration this code does not know: applied by a newer relay.
    await other.query(`insert into kysely_migration (name, timestamp) values ('9999_unknown', now()::text)`)
    const conflicts: string[] = []
    await expect(migrateAtStart(db, testDb.url, { searchPath: testDb.searchPath }, { onLockConflict: (_attempt, reason) => conflicts.push(reason) })).rejects.toThrow(/migration/)
    expect(conflicts).toEqual([])
  })

  it('ends with exactly the functions of the .sql files, each applied once', async () => {
    const functionsOf = async () =>
      (
        await other.query<{ name: string }>(
          `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema() order by 1`,
        )
      ).rows.map((row) => row.name)
    const definitions = functionDefinitions()
    // Migration 0036's relay_freeze overload is gone: one function per file.
    expect(await functionsOf()).toEqual(definitions.map((d) => d.name).sort())
    const hashes = async () => (await other.query<{ name: string; sha256: string; applied_timestamp: string }>('select * from relay_functions order by name')).rows
    expect((await hashes()).map(({ name, sha256 }) => ({ name, sha256 }))).toEqual(
      definitions.map(({ name, sha256 }) => ({ name, sha256 })).sort((a, b) => a.name.localeCompare(b.name)),
    )

    // A text changed since it was applied (its hash differs): that function alone is replaced.
    const before = await hashes()
    await other.query('drop function relay_settle_calls_unflushed(bigint[], integer[], bigint[], bigint, jsonb, integer, integer)')
    await other.query(`update relay_functions set sha256 = 'an older text' where name = 'relay_settle_calls_unflushed'`)
    await applyFunctions(db, 12345)
    expect(await functionsOf()).toEqual(definitions.map((d) => d.name).sort())
    expect(await hashes()).toEqual(before.map((row) => (row.name === 'relay_settle_calls_unflushed' ? { ...row, applied_timestamp: '12345' } : row)))
  })

  it('applies the functions under the migration\'s lock rules: gives way to a lock on their table, then applies', async () => {
    await other.query(`update relay_functions set sha256 = 'an older text' where name = 'relay_settle'`)
    await other.query('begin')
    await other.query('lock table relay_functions in access exclusive mode')
    const conflicts: string[] = []
    const migrated = migrateAtStart(db, testDb.url, { searchPath: testDb.searchPath }, { lockTimeoutMs: 200, onLockConflict: (_attempt, reason) => conflicts.push(reason) })
    await until(() => conflicts.length >= 2)
    await other.query('commit')
    await expect(migrated).resolves.toBeUndefined()
    expect(conflicts[0]).toMatch(/lock timeout/)
    const { rows } = await other.query<{ sha256: string }>(`select sha256 from relay_functions where name = 'relay_settle'`)
    expect(rows[0]!.sha256).toBe(functionDefinitions().find((d) => d.name === 'relay_settle')!.sha256)
  })
})
