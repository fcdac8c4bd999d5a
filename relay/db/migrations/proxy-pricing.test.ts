import { Migrator, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../tests/fixtures/databases.ts'
import { migrateToLatest } from '../migrate.ts'
import { isPostgres, type Database } from '../open-database.ts'
import { migrations } from './index.ts'

describe.each(databaseKinds())('migration 0013-proxy-pricing on %s', (kind) => {
  let testDb: TestDatabase
  let db: Database

  beforeAll(async () => {
    testDb = await createTestDatabase(kind)
    db = testDb.open()
  })
  afterAll(async () => {
    await db.destroy()
    await testDb.dispose()
  })

  it('keeps every recorded call through the table rebuild, keeps an operator’s own price, and seeds the rest', async () => {
    const schema = isPostgres(db) ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s : undefined
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema })
    expect((await migrator.migrateTo('0009-proxy')).error).toBeUndefined()

    // A deployment as it was: one user, one key, one recorded call, and a price set for a name 0013 seeds.
    const now = 1_767_225_600_000
    await db
      .insertInto('users')
      .values({ id: '9001', username: 'old_user', email: 'old@example.com', password_hash: 'x', user_type: 'normal', status: 'active', token_version: 0, invite_code: 'OLD00001', create_timestamp: now, update_timestamp: now } as never)
      .execute()
    await db
      .insertInto('api_keys')
      .values({ id: '9002', user_id: '9001', name: 'cli', key_hash: 'h'.repeat(64), last4: 'abcd', create_timestamp: now } as never)
      .execute()
    const call = {
      id: '9003',
      user_id: '9001',
      key_id: '9002',
      provider_id: null,
      api: 'anthropic',
      model: 'claude-sonnet-4-5',
      streamed: 1,
      outcome: 'completed',
      status: 200,
      input_tokens: 10,
      output_tokens: 20,
      cache_read_tokens: 30,
      cache_write_tokens: 40,
      points: 7,
      client_ip: '192.0.2.1',
      create_timestamp: now,
      duration_ms: 12,
    } as const
    await db.insertInto('proxy_calls').values(call as never).execute()
    await db
      .insertInto('model_costs')
      .values({ model: 'claude-opus-5-5', kind: 'fixed', points_per_call: 9, update_timestamp: now } as never)
      .execute()

    await migrateToLatest(db)

    // Every column the call had keeps its value; columns later migrations add are left to them.
    const calls = await db.selectFrom('proxy_calls').selectAll().execute()
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ ...call, client_id: null, shortfall_points: 0 })
    const prices = new Map((await db.selectFrom('model_costs').selectAll().execute()).map((row) => [row.model, row]))
    expect(prices.get('claude-opus-5-5')).toMatchObject({ kind: 'fixed', points_per_call: 9 })
    expect(prices.get('claude-sonnet-5-5')).toMatchObject({ input_points_per_mtok: 200, output_points_per_mtok: 1000, long_context_threshold: null })
    expect(prices.get('claude-haiku-*')).toMatchObject({ long_context_threshold: 100_000, long_context_input_percent: 500, long_context_output_percent: 500 })
    expect(prices.get('claude-sonnet-4-5')).toMatchObject({ long_context_threshold: 200_000, long_context_input_percent: 200, long_context_output_percent: 150 })
    // A call made with an OAuth token has no key.
    await db
      .insertInto('proxy_calls')
      .values({ ...call, id: '9004', key_id: null, client_id: 'rc_test', shortfall_points: 3, cache_write_1h_tokens: 0, web_search_requests: 0 })
      .execute()
  })
})
