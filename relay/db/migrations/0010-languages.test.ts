import { Migrator, sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../tests/fixtures/databases.ts'
import { insertUser } from '../../users/users.ts'
import { newId } from '../ids.ts'
import type { Database } from '../open-database.ts'
import { migrations } from './index.ts'

/** The tables as they were before 0010: one name and description, reset tickets in two languages. */
type Before = Kysely<{ packages: Record<string, unknown>; tickets: Record<string, unknown> }>

describe.each(databaseKinds())('0010-languages converts what is there (%s)', (kind) => {
  let testDb: TestDatabase
  let db: Database
  const migrator = () =>
    new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: testDb.searchPath })

  beforeAll(async () => {
    testDb = await createTestDatabase(kind)
    db = testDb.open()
  })
  afterAll(async () => {
    await db.destroy()
    await testDb.dispose()
  })

  it('names the seeded packages per language, keeps an operator’s one name in every language, and types the reset tickets', async () => {
    const before = await migrator().migrateTo('0009-proxy')
    expect(before.error).toBeUndefined()
    const old = db as unknown as Before
    const now = Date.now()
    await old
      .insertInto('packages')
      .values({ id: newId(), code: 'PRO', name: 'Pro 专业版', kind: 'personal', points_limit: 5000, hour_points: 200, validity_days: 30, price: 0, description: 'Pro', create_timestamp: now })
      .execute()
    const user = await insertUser(db, now, { username: 'migrated', email: 'migrated@example.com', passwordHash: 'x' })
    const ticket = (number: string, title: string, content: string, type = 'pointsReset') => ({
      id: newId(), number, user_id: user.id, type, priority: 'medium', status: 'pending', title, content, assignee_id: null, tags: '[]',
      create_timestamp: now, update_timestamp: now, reply_timestamp: null, closed_timestamp: null,
    })
    await old
      .insertInto('tickets')
      .values([
        ticket('T2601010001', '积分重置申请 / Points reset request', '误操作消耗 / Misoperation consumption\n\nA loop spent it all'),
        ticket('T2601010002', '积分重置申请 / Points reset request', 'written some other way'),
        ticket('T2601010003', 'Please reset', 'my own words', 'pointsReset'),
      ])
      .execute()

    const after = await migrator().migrateToLatest()
    expect(after.error).toBeUndefined()

    const packages = await db
      .selectFrom('packages')
      .select(['code', 'name_zh', 'name_en', 'name_ja', 'description_zh', 'description_en', 'description_ja'])
      .orderBy('code')
      .execute()
    expect(packages).toEqual([
      {
        code: 'PERSONAL',
        name_zh: '个人版',
        name_en: 'Personal',
        name_ja: 'パーソナル',
        description_zh: '个人开发者，每小时补充 100 积分',
        description_en: 'For one developer, 100 points every hour',
        description_ja: '個人の開発者向け、毎時 100 ポイント補充',
      },
      { code: 'PRO', name_zh: 'Pro 专业版', name_en: 'Pro 专业版', name_ja: 'Pro 专业版', description_zh: 'Pro', description_en: 'Pro', description_ja: 'Pro' },
      {
        code: 'TEAM',
        name_zh: '团队版',
        name_en: 'Team',
        name_ja: 'チーム',
        description_zh: '团队共享积分池，每小时补充 500 积分',
        description_en: 'A shared pool for a team, 500 points every hour',
        description_ja: 'チームで共有するポイント、毎時 500 ポイント補充',
      },
    ])
    // The single-language columns are gone.
    const columns = await sql<Record<string, unknown>>`select * from packages`.execute(db)
    expect(Object.keys(columns.rows[0]!)).not.toContain('name')

    const tickets = await db
      .selectFrom('tickets')
      .select(['number', 'title', 'content', 'system_kind', 'reset_reason'])
      .orderBy('number')
      .execute()
    expect(tickets).toEqual([
      { number: 'T2601010001', title: 'Points reset request', content: 'A loop spent it all', system_kind: 'points_reset', reset_reason: 'misoperation' },
      { number: 'T2601010002', title: 'Points reset request', content: 'written some other way', system_kind: 'points_reset', reset_reason: null },
      { number: 'T2601010003', title: 'Please reset', content: 'my own words', system_kind: null, reset_reason: null },
    ])
  })
})
