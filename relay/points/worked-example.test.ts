/**
 * The worked example of docs/pricing.md, computed by the relay's own charge from the seeded Sonnet
 * 5.5 row as a fresh database holds it: the document and the code say the same, or this fails.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { migrateToLatest } from '../db/migrate.ts'
import type { Database } from '../db/open-database.ts'
import { findModelCost, itemisedCharge } from './model-costs.ts'

const turn = { input_tokens: 2000, cache_read_tokens: 150_000, cache_write_tokens: 0, cache_write_1h_tokens: 30_000, output_tokens: 1500, web_search_requests: 3 }

let database: TestDatabase
let db: Database
beforeAll(async () => {
  database = await createTestDatabase(databaseKinds()[0]!)
  db = database.open()
  await migrateToLatest(db)
})
afterAll(async () => {
  await db.destroy()
  await database.dispose()
})

it('charges the documented Claude Code turn on seeded Sonnet 5.5 line by line: 19.9, so 20 points', async () => {
  const sonnet = (await findModelCost(db, 'claude-sonnet-5-5'))!
  const charge = itemisedCharge(sonnet, turn)
  expect(charge.lines.map(({ item, quantity, rate, points }) => [item, quantity, rate, points])).toEqual([
    ['input', 2000, 200, 0.4],
    ['cache_read', 150_000, 20, 3],
    ['cache_write_1h', 30_000, 400, 12],
    ['output', 1500, 1000, 1.5],
    ['web_search', 3, 1, 3],
  ])
  expect(charge.points).toBe(20)
})

it('tiers every token line once the prompt passes a 200,000-token threshold at 200 % / 150 %: 37 points', async () => {
  const tiered = { ...(await findModelCost(db, 'claude-sonnet-5-5'))!, long_context_threshold: 200_000, long_context_input_percent: 200, long_context_output_percent: 150 }
  // 182,000 prompt tokens stay at standard rates; 202,000 do not.
  expect(itemisedCharge(tiered, turn).points).toBe(20)
  expect(itemisedCharge(tiered, { ...turn, cache_read_tokens: 170_000 }).points).toBe(37)
})
