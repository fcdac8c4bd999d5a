/**
 * The providers' list prices the price page and the reconciliation report compare with
 * (docs/decisions/080-prices.md), in US cents per million tokens, input / output, with the day
 * they were read and the CNY per USD rate of that day. They are data an operator edits on the
 * console's `/admin/list-prices` (seeded by migration 0066). Names and patterns are matched as
 * the price table matches a call's model, so the rows reuse `PriceTable` with cents where it
 * holds points.
 */
import type { Clock } from '../clock.ts'
import type { AdminListPrices } from '../contract/admin-ops.ts'
import type { ModelCost } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { inTransaction } from '../points/locks.ts'
import { PriceTable } from '../points/model-costs.ts'

export interface ListPrices {
  /** The day the prices were read, `YYYY-MM-DD`. */
  readOn: string
  /** CNY per US dollar on that day, in fen (720: 7.20). */
  fenPerUsd: number
  table: PriceTable
}

const asCost = (row: { model: string; input_cents_per_mtok: number; output_cents_per_mtok: number }): ModelCost => ({
  model: row.model,
  kind: 'variable',
  points_per_call: null,
  input_points_per_mtok: row.input_cents_per_mtok,
  output_points_per_mtok: row.output_cents_per_mtok,
  cache_read_points_per_mtok: null,
  cache_write_points_per_mtok: null,
  description: null,
})

export async function readListPrices(db: Database): Promise<ListPrices> {
  const [rows, basis] = await Promise.all([
    db.selectFrom('list_prices').selectAll().orderBy('model').execute(),
    db.selectFrom('list_price_basis').selectAll().where('id', '=', 1).executeTakeFirstOrThrow(),
  ])
  return { readOn: basis.read_on, fenPerUsd: basis.fen_per_usd, table: new PriceTable(rows.map(asCost)) }
}

/** The console's view: every row, the day and the rate. */
export async function listPricesForConsole(db: Database): Promise<AdminListPrices> {
  const [rows, basis] = await Promise.all([
    db.selectFrom('list_prices').selectAll().orderBy('model').execute(),
    db.selectFrom('list_price_basis').selectAll().where('id', '=', 1).executeTakeFirstOrThrow(),
  ])
  return { read_on: basis.read_on, fen_per_usd: basis.fen_per_usd, items: rows }
}

/** Replaces the list, the day and the rate at once (a new read of the providers' pages), audited. */
export async function setListPricesAsOperator(db: Database, operator: Operator, clock: Clock, next: AdminListPrices): Promise<AdminListPrices> {
  return inTransaction(db, async (trx) => {
    const before = await listPricesForConsole(trx)
    const now = clock.now()
    await trx.deleteFrom('list_prices').execute()
    if (next.items.length > 0) await trx.insertInto('list_prices').values(next.items).execute()
    await trx.updateTable('list_price_basis').set({ read_on: next.read_on, fen_per_usd: next.fen_per_usd, update_timestamp: now }).where('id', '=', 1).execute()
    await recordAudit(trx, operator, { action: 'list_prices.set', target: { kind: 'list_prices', ref: next.read_on }, before, after: next }, now)
    return listPricesForConsole(trx)
  })
}

/**
 * Anthropic's list rates beside input and output, as multiples of the input rate: a cache read
 * 0.1×, a 5-minute cache write 1.25×, a 1-hour write 2×; a hosted web search $10 per 1,000, so
 * 1 cent each. The reconciliation report (admin/reconciliation.ts) prices usage with them.
 */
export const listCacheMultipliers = { cache_read: 0.1, cache_write_5m: 1.25, cache_write_1h: 2 } as const
export const listWebSearchCents = 1

/** What `usage` costs at the list prices, in US cents; null when the list has no row for `model`. */
export function listCentsOf(
  list: ListPrices,
  model: string,
  usage: { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; cache_write_1h_tokens: number; web_search_requests: number },
): number | null {
  const found = list.table.find(model)
  if (!found) return null
  const input = found.cost.input_points_per_mtok ?? 0
  const output = found.cost.output_points_per_mtok ?? 0
  const tokenCents =
    usage.input_tokens * input +
    usage.cache_read_tokens * input * listCacheMultipliers.cache_read +
    usage.cache_write_tokens * input * listCacheMultipliers.cache_write_5m +
    usage.cache_write_1h_tokens * input * listCacheMultipliers.cache_write_1h +
    usage.output_tokens * output
  return tokenCents / 1_000_000 + usage.web_search_requests * listWebSearchCents
}

/** A list price in US dollars per million tokens, input and output; null when the list has none. */
export function listPriceOf(list: ListPrices, model: string): { input: number; output: number } | null {
  const found = list.table.find(model)
  if (!found) return null
  return { input: (found.cost.input_points_per_mtok ?? 0) / 100, output: (found.cost.output_points_per_mtok ?? 0) / 100 }
}

/**
 * Percent saved against the list price, input and output each compared, the smaller saving kept;
 * null for a per-call price or a model the list does not have. Negative when dearer.
 */
export function savingsPercent(list: ListPrices, cost: ModelCost, fenPerPoint: number): number | null {
  const listed = listPriceOf(list, cost.model)
  if (!listed || cost.kind !== 'variable' || listed.input === 0 || listed.output === 0) return null
  const saved = (ours: number | null, theirs: number) => 1 - ((ours ?? 0) * fenPerPoint) / (theirs * list.fenPerUsd)
  return Math.floor(100 * Math.min(saved(cost.input_points_per_mtok, listed.input), saved(cost.output_points_per_mtok, listed.output)))
}
