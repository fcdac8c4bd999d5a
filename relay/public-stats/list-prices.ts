/**
 * The providers' list prices the price page compares with (docs/decisions/080-prices.md), in US cents per
 * million tokens, input / output. Source: Anthropic's prices as published on platform.claude.com
 * on 2026-11-24, the same read the seeded prices took (docs/decisions/080-prices.md). Change `listPricesDate`
 * with any row. Names and patterns are matched as the price table matches a call's model, so the
 * rows reuse `PriceTable` with cents where it holds points.
 */
import type { ModelCost } from '../contract/points.ts'
import { PriceTable } from '../points/model-costs.ts'

export const listPricesDate = '2026-11-24'
/** CNY per US dollar for the comparison: the rounded rate on `listPricesDate`; packages are priced in fen. */
export const cnyPerUsd = 7.2

const list = (model: string, input: number, output: number): ModelCost => ({
  model,
  kind: 'variable',
  points_per_call: null,
  input_points_per_mtok: input,
  output_points_per_mtok: output,
  cache_read_points_per_mtok: null,
  cache_write_points_per_mtok: null,
  description: null,
})

export const listPrices = new PriceTable([
  list('claude-opus-5-5', 400, 2000),
  list('claude-opus-5', 500, 2500),
  list('claude-opus-4-8', 500, 2500),
  list('claude-opus-4-*', 500, 2500),
  list('claude-opus-4', 1500, 7500),
  list('claude-opus-4-1', 1500, 7500),
  list('claude-opus-4-0', 1500, 7500),
  list('claude-opus-*', 400, 2000),
  list('claude-sonnet-5-5', 200, 1000),
  list('claude-sonnet-5', 200, 1000),
  list('claude-sonnet-4-*', 300, 1500),
  list('claude-sonnet-4', 300, 1500),
  list('claude-sonnet-*', 200, 1000),
  list('claude-haiku-5-5', 10, 50),
  list('claude-haiku-4-*', 100, 500),
  list('claude-haiku-*', 10, 50),
])

/**
 * Anthropic's list rates beside input and output, as multiples of the input rate: a cache read
 * 0.1×, a 5-minute cache write 1.25×, a 1-hour write 2×; a hosted web search $10 per 1,000, so
 * 1 cent each. The reconciliation report (admin/reconciliation.ts) prices usage with them.
 */
export const listCacheMultipliers = { cache_read: 0.1, cache_write_5m: 1.25, cache_write_1h: 2 } as const
export const listWebSearchCents = 1

/** What `usage` costs at the list prices, in US cents; null when the list has no row for `model`. */
export function listCentsOf(
  model: string,
  usage: { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; cache_write_1h_tokens: number; web_search_requests: number },
): number | null {
  const found = listPrices.find(model)
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
export function listPriceOf(model: string): { input: number; output: number } | null {
  const found = listPrices.find(model)
  if (!found) return null
  return { input: (found.cost.input_points_per_mtok ?? 0) / 100, output: (found.cost.output_points_per_mtok ?? 0) / 100 }
}

/**
 * Percent saved against the list price, input and output each compared, the smaller saving kept;
 * null for a per-call price or a model the list does not have. Negative when dearer.
 */
export function savingsPercent(cost: ModelCost, fenPerPoint: number): number | null {
  const listed = listPriceOf(cost.model)
  if (!listed || cost.kind !== 'variable' || listed.input === 0 || listed.output === 0) return null
  const fenPerUsd = cnyPerUsd * 100
  const saved = (ours: number | null, theirs: number) => 1 - ((ours ?? 0) * fenPerPoint) / (theirs * fenPerUsd)
  return Math.floor(100 * Math.min(saved(cost.input_points_per_mtok, listed.input), saved(cost.output_points_per_mtok, listed.output)))
}
