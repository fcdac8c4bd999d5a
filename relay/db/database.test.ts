import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { migrateToLatest } from './migrate.ts'
import { isUniqueViolation, type Database } from './open-database.ts'

describe.each(databaseKinds())('database on %s', (kind) => {
  let testDb: TestDatabase
  let db: Database

  beforeAll(async () => {
    testDb = await createTestDatabase(kind)
    db = testDb.open()
    await migrateToLatest(db)
  })
  afterAll(async () => {
    await db.destroy()
    await testDb.dispose()
  })

  it('migrates idempotently, also from a second connection', async () => {
    const second = testDb.open()
    try {
      await Promise.all([migrateToLatest(db), migrateToLatest(second)])
    } finally {
      await second.destroy()
    }
    const rows = await db.selectFrom('rate_limits').selectAll().execute()
    expect(rows).toEqual([])
  })

  it('returns integers alike: id columns as strings, safe values as numbers, unsafe ones as strings', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select cast(${'9007199254740993'} as bigint) as big,
             cast(${'42'} as bigint) as small,
             cast(${'7'} as bigint) as user_id,
             cast(${'8'} as bigint) as invited_by,
             cast(${'18446744073709551'} as bigint) as id`.execute(db)
    expect(rows[0]).toEqual({ big: '9007199254740993', small: 42, user_id: '7', invited_by: '8', id: '18446744073709551' })
  })

  it('stores a string id in a bigint column and finds it again exactly', async () => {
    const key = 'id-roundtrip'
    await db.insertInto('rate_limits').values({ key, window_start: 0, count: 1 }).execute()
    await sql`update rate_limits set window_start = ${'9223372036854775807'} where key = ${key}`.execute(db)
    const row = await db.selectFrom('rate_limits').select('window_start').where('key', '=', key).executeTakeFirstOrThrow()
    expect(row.window_start).toBe('9223372036854775807')
  })

  it('recognises a unique violation', async () => {
    await db.insertInto('rate_limits').values({ key: 'dup', window_start: 0, count: 1 }).execute()
    const error = await db
      .insertInto('rate_limits')
      .values({ key: 'dup', window_start: 0, count: 1 })
      .execute()
      .catch((e: unknown) => e)
    expect(isUniqueViolation(error)).toBe(true)
  })
})

describe.each(databaseKinds())('transactions on %s', (kind) => {
  it('commits and rolls back (SQLite opens them with BEGIN IMMEDIATE)', async () => {
    const testDb = await createTestDatabase(kind)
    const db = testDb.open()
    try {
      await migrateToLatest(db)
      await db.transaction().execute((trx) => trx.insertInto('rate_limits').values({ key: 'kept', window_start: 0, count: 1 }).execute())
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('rate_limits').values({ key: 'dropped', window_start: 0, count: 1 }).execute()
          throw new Error('roll back')
        })
        .catch(() => undefined)
      const keys = await db.selectFrom('rate_limits').select('key').execute()
      expect(keys.map((k) => k.key)).toEqual(['kept'])
    } finally {
      await db.destroy()
      await testDb.dispose()
    }
  })
})
