/**
 * Model costs (GET /api/user/points/model-costs, `model-cost set|list`): per model, or per
 * pattern of models (`claude-opus-*`), a fixed number of points per call, or rates in points per
 * million tokens. The metered relay finds a model's cost in a `PriceTable` (kept by
 * proxy/route-table.ts) and prices a call with `pointsForUsage` (docs/decisions/080).
 */
import type { Selectable } from 'kysely'
import { z } from 'zod'
import { modelCostInputSchema, type ModelCostInput } from '../contract/admin-ops.ts'
import type { ModelCost } from '../contract/points.ts'
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
 * Every model cost, ready for lookups (docs/decisions/080): the exact id first, then the id
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

/** Tokens of the prompt, as providers count it for long-context pricing: input, cache reads and writes. */
export function promptTokens(usage: TokenUsage): number {
  return usage.input_tokens + (usage.cache_read_tokens ?? 0) + (usage.cache_write_tokens ?? 0)
}

/**
 * Points for one call, rounded up so no call is free by rounding. A prompt over the cost's
 * long-context threshold is charged the long-context percentages of the rates, for the whole
 * call, as the provider bills it.
 */
export function pointsForUsage(cost: ModelCost, usage: TokenUsage): number {
  if (cost.kind === 'fixed') return cost.points_per_call ?? 0
  const threshold = cost.long_context_threshold ?? null
  const long = threshold !== null && promptTokens(usage) > threshold
  const inputPercent = long ? (cost.long_context_input_percent ?? 100) : 100
  const outputPercent = long ? (cost.long_context_output_percent ?? 100) : 100
  const input = cost.input_points_per_mtok ?? 0
  const inputSide =
    usage.input_tokens * input +
    (usage.cache_read_tokens ?? 0) * (cost.cache_read_points_per_mtok ?? input) +
    (usage.cache_write_tokens ?? 0) * (cost.cache_write_points_per_mtok ?? input)
  const outputSide = usage.output_tokens * (cost.output_points_per_mtok ?? 0)
  return Math.ceil((inputSide * inputPercent + outputSide * outputPercent) / 100 / 1_000_000)
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
    long_context_threshold: row.long_context_threshold,
    long_context_input_percent: row.long_context_input_percent,
    long_context_output_percent: row.long_context_output_percent,
    description: row.description,
  }
}
