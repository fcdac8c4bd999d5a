import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { migrateAtStart, migrateToLatest } from './migrate.ts'
import { openDatabase, type Database } from './open-database.ts'

/** Kysely's migration lock on PostgreSQL: an advisory lock, held by a relay while it migrates. */
const kyselyMigrationLock = '3853314791062309107'

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const giveUp = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > giveUp) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// A relay starting with new migrations while others serve on the same PostgreSQL (a rolling upgrade).
describe.skipIf(!process.env.TEST_DATABASE_URL)('migrating at start beside live relays (postgres)', () => {
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
    await new Promise((resolve) => setTimeout(resolve, 1_500))
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
})
