import type { Kysely } from 'kysely'

/**
 * The providers' list prices the public price page and the reconciliation report compare with,
 * and the day they were read with the exchange rate of that day: data an operator edits on the
 * console's `/admin/list-prices`, no longer constants in code. Seeded with Anthropic's prices as
 * published on 2026-11-24 (US cents per million tokens, input / output) and 7.20 CNY per USD.
 */
const seeded: Array<[string, number, number]> = [
  ['claude-opus-5-5', 400, 2000],
  ['claude-opus-5', 500, 2500],
  ['claude-opus-4-8', 500, 2500],
  ['claude-opus-4-*', 500, 2500],
  ['claude-opus-4', 1500, 7500],
  ['claude-opus-4-1', 1500, 7500],
  ['claude-opus-4-0', 1500, 7500],
  ['claude-opus-*', 400, 2000],
  ['claude-sonnet-5-5', 200, 1000],
  ['claude-sonnet-5', 200, 1000],
  ['claude-sonnet-4-*', 300, 1500],
  ['claude-sonnet-4', 300, 1500],
  ['claude-sonnet-*', 200, 1000],
  ['claude-haiku-5-5', 10, 50],
  ['claude-haiku-4-*', 100, 500],
  ['claude-haiku-*', 10, 50],
]

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<{
    list_prices: { model: string; input_cents_per_mtok: number; output_cents_per_mtok: number }
    list_price_basis: { id: number; read_on: string; fen_per_usd: number; update_timestamp: number }
  }>
  await db.schema
    .createTable('list_prices')
    .addColumn('model', 'text', (col) => col.primaryKey())
    .addColumn('input_cents_per_mtok', 'integer', (col) => col.notNull())
    .addColumn('output_cents_per_mtok', 'integer', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('list_price_basis')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('read_on', 'text', (col) => col.notNull())
    .addColumn('fen_per_usd', 'integer', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db
    .insertInto('list_prices')
    .values(seeded.map(([model, input, output]) => ({ model, input_cents_per_mtok: input, output_cents_per_mtok: output })))
    .execute()
  await db.insertInto('list_price_basis').values({ id: 1, read_on: '2026-11-24', fen_per_usd: 720, update_timestamp: 0 }).execute()
}
