import type { Kysely } from 'kysely'

/**
 * What providers bill beyond tokens at four rates (relay/points/model-costs.ts, docs/pricing.md):
 * - `model_costs`: a rate for 1-hour cache writes (null: twice the input rate, as Anthropic bills
 *   them) and points per hosted web search (null: 1 point, $10 per 1,000 searches);
 * - `proxy_calls`: the 1-hour writes and searches of each call, and its itemised charge (JSON of
 *   `ItemisedCharge`: the price row, the rates and tier applied, each line's points), so a call's
 *   charge reads the same after its model is repriced. Null for calls before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('model_costs').addColumn('cache_write_1h_points_per_mtok', 'integer').execute()
  await db.schema.alterTable('model_costs').addColumn('web_search_points', 'integer').execute()
  await db.schema.alterTable('proxy_calls').addColumn('cache_write_1h_tokens', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('proxy_calls').addColumn('web_search_requests', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('proxy_calls').addColumn('charge', 'text').execute()
}
