/**
 * Model costs (GET /api/user/points/model-costs, `model-cost set|list`): per model, or per
 * pattern of models (`claude-opus-*`), a fixed number of points per call, or rates in points per
 * million tokens. The metered relay finds a model's cost in a `PriceTable` (kept by
 * proxy/route-table.ts) and prices a call with `pointsForUsage` (docs/decisions/080-prices.md).
 */
import type { Selectable } from 'kysely'
import { z } from 'zod'
import { modelCostInputSchema, type ModelCostInput } from '../contract/admin-ops.ts'
import { defaultWebSearchPoints, type ModelCost } from '../contract/points.ts'
import type { chargeItems } from '../contract/usage.ts'
import type { Database } from '../db/open-database.ts'
import type { ModelCostsTable } from '../db/schema.ts'

export { modelCostInputSchema, type ModelCostInput } from '../contract/admin-ops.ts'

/** Creates or replaces a model's cost; bad input throws an Error saying what is wrong. */
export async function setModelCost(db: Database, now: number, input: ModelCostInput): Promise<ModelCost> {
  const parsed = modelCostInputSchema.safeParse(input)
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error))
  const cost = parsed.data
  const row = { ...cost, update_timestamp: now }
  await db
    .insertInto('model_costs')
    .values(row)
    .onConflict((oc) => oc.column('model').doUpdateSet(row))
    .execute()
  return toModelCost(row)
}

/** Removes a model's cost (the relay then refuses the model); false when it had none. */
export async function removeModelCost(db: Database, model: string): Promise<boolean> {
  const result = await db.deleteFrom('model_costs').where('model', '=', model.trim()).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function findModelCost(db: Database, model: string): Promise<ModelCost | undefined> {
  const row = await db.selectFrom('model_costs').selectAll().where('model', '=', model.trim()).executeTakeFirst()
  return row && toModelCost(row)
}

export async function listModelCosts(db: Database): Promise<ModelCost[]> {
  const rows = await db.selectFrom('model_costs').selectAll().orderBy('model').execute()
  return rows.map(toModelCost)
}

/** Whether a model cost's name is a pattern (`*` for any characters) rather than one model. */
export function isModelPattern(model: string): boolean {
  return model.includes('*')
}

/** A priced name in the table: one model, or a pattern. */
export interface PricedBy {
  cost: ModelCost
  /** The name of the row that priced the model: itself, its undated alias, or a pattern. */
  by: string
}

/**
 * Every model cost, ready for lookups (docs/decisions/080-prices.md): the exact id first, then the id
 * without a date suffix (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`), then the most
 * specific pattern that matches — the one with the most characters besides `*` (ties: fewer `*`,
 * then by name). `*` alone is thus the default price, used only when nothing else matches.
 */
export class PriceTable {
  readonly #exact = new Map<string, ModelCost>()
  readonly #patterns: Array<{ cost: ModelCost; regexp: RegExp }> = []

  constructor(costs: readonly ModelCost[]) {
    const patterns: ModelCost[] = []
    for (const cost of costs) {
      if (isModelPattern(cost.model)) patterns.push(cost)
      else this.#exact.set(cost.model.toLowerCase(), cost)
    }
    const literal = (model: string) => model.replaceAll('*', '').length
    const stars = (model: string) => model.length - literal(model)
    patterns.sort((a, b) => literal(b.model) - literal(a.model) || stars(a.model) - stars(b.model) || (a.model < b.model ? -1 : 1))
    for (const cost of patterns) this.#patterns.push({ cost, regexp: patternRegExp(cost.model) })
  }

  find(model: string): PricedBy | null {
    const id = model.toLowerCase()
    const exact = this.#exact.get(id)
    if (exact) return { cost: exact, by: exact.model }
    const undated = this.#exact.get(id.replace(/-\d{8}$|-\d{4}-\d{2}-\d{2}$/, ''))
    if (undated) return { cost: undated, by: undated.model }
    for (const { cost, regexp } of this.#patterns) if (regexp.test(id)) return { cost, by: cost.model }
    return null
  }
}

/** `*` stands for any run of characters; case does not matter. */
export function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${source}$`, 'i')
}

export interface TokenUsage {
  input_tokens: number
  output_tokens: number
  cache_read_tokens?: number
  cache_write_tokens?: number
  /** 1-hour cache writes (`cache_write_tokens` stays the 5-minute writes). */
  cache_write_1h_tokens?: number
  /** Hosted web searches (Anthropic `usage.server_tool_use.web_search_requests`, OpenAI Responses `web_search_call` output items). */
  web_search_requests?: number
}

/** Tokens of the prompt, as providers count it for long-context pricing: input, cache reads and writes of either lifetime. */
export function promptTokens(usage: TokenUsage): number {
  return usage.input_tokens + (usage.cache_read_tokens ?? 0) + (usage.cache_write_tokens ?? 0) + (usage.cache_write_1h_tokens ?? 0)
}

export type ChargeItem = (typeof chargeItems)[number]

export interface ChargeLine {
  item: ChargeItem
  /** Tokens, searches or 1 call. */
  quantity: number
  /** The price row's rate: points per million tokens, or per search or call, before any tier. */
  rate: number
  /** The tier's percentage of the rate applied to this line (100 at standard rates). */
  percent: number
  /** This line's points, not rounded: `quantity × rate × percent / 100`, per million for tokens. */
  points: number
}

/**
 * How a call was charged, kept with its record (`proxy_calls.charge`): the price row and its rates
 * as they were, so a later repricing leaves it as it was charged.
 */
export interface ItemisedCharge {
  /** The price row that priced the call: the model, its undated alias or a pattern. */
  price: string
  /** The long-context tier applied, or null for standard rates. */
  long_context: { threshold: number; input_percent: number; output_percent: number } | null
  /** The lines with a quantity, in `chargeItems` order. */
  lines: ChargeLine[]
  /** The call's points: the lines' sum, rounded up so no call is free by rounding. */
  points: number
}

/**
 * The itemised charge of one call. A prompt over the cost's long-context threshold is charged the
 * long-context percentages of the token rates, for the whole call, as the provider bills it;
 * searches are charged per search at any length.
 */
export function itemisedCharge(cost: ModelCost, usage: TokenUsage): ItemisedCharge {
  if (cost.kind === 'fixed') {
    const points = cost.points_per_call ?? 0
    return { price: cost.model, long_context: null, lines: [{ item: 'call', quantity: 1, rate: points, percent: 100, points }], points }
  }
  const threshold = cost.long_context_threshold ?? null
  const long = threshold !== null && promptTokens(usage) > threshold
  const inputPercent = long ? (cost.long_context_input_percent ?? 100) : 100
  const outputPercent = long ? (cost.long_context_output_percent ?? 100) : 100
  const input = cost.input_points_per_mtok ?? 0
  const tokenLines: Array<[ChargeItem, number | undefined, number, number]> = [
    ['input', usage.input_tokens, input, inputPercent],
    ['cache_read', usage.cache_read_tokens, cost.cache_read_points_per_mtok ?? input, inputPercent],
    ['cache_write_5m', usage.cache_write_tokens, cost.cache_write_points_per_mtok ?? input, inputPercent],
    ['cache_write_1h', usage.cache_write_1h_tokens, cost.cache_write_1h_points_per_mtok ?? 2 * input, inputPercent],
    ['output', usage.output_tokens, cost.output_points_per_mtok ?? 0, outputPercent],
  ]
  const lines: ChargeLine[] = []
  // Summed in whole units (tokens × rate × percent) and divided once, so the total is exact.
  let units = 0
  for (const [item, quantity, rate, percent] of tokenLines) {
    if (!quantity) continue
    units += quantity * rate * percent
    lines.push({ item, quantity, rate, percent, points: (quantity * rate * percent) / 100 / 1_000_000 })
  }
  const searches = usage.web_search_requests ?? 0
  if (searches > 0) {
    const rate = cost.web_search_points ?? defaultWebSearchPoints
    units += searches * rate * 100 * 1_000_000
    lines.push({ item: 'web_search', quantity: searches, rate, percent: 100, points: searches * rate })
  }
  return {
    price: cost.model,
    long_context: long ? { threshold, input_percent: inputPercent, output_percent: outputPercent } : null,
    lines,
    points: Math.ceil(units / 100 / 1_000_000),
  }
}

/** Points for one call (`itemisedCharge`'s total). */
export function pointsForUsage(cost: ModelCost, usage: TokenUsage): number {
  return itemisedCharge(cost, usage).points
}

function toModelCost(row: Selectable<ModelCostsTable>): ModelCost {
  return {
    model: row.model,
    kind: row.kind,
    points_per_call: row.points_per_call,
    input_points_per_mtok: row.input_points_per_mtok,
    output_points_per_mtok: row.output_points_per_mtok,
    cache_read_points_per_mtok: row.cache_read_points_per_mtok,
    cache_write_points_per_mtok: row.cache_write_points_per_mtok,
    cache_write_1h_points_per_mtok: row.cache_write_1h_points_per_mtok,
    web_search_points: row.web_search_points,
    long_context_threshold: row.long_context_threshold,
    long_context_input_percent: row.long_context_input_percent,
    long_context_output_percent: row.long_context_output_percent,
    description: row.description,
  }
}
