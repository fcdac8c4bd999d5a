/**
 * Model costs (GET /api/user/points/model-costs, `model-cost set|list`): per model, a fixed
 * number of points per call, or rates in points per million tokens. The metered relay finds a
 * model's cost with `pickModelCost` (from the costs it keeps, proxy/route-table.ts) and prices a call
 * with `pointsForUsage`.
 */
import type { Selectable } from 'kysely'
import { z } from 'zod'
import { modelCostKinds, type ModelCost } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import type { ModelCostsTable } from '../db/schema.ts'

const rate = z.int().min(0).max(10_000_000)

export const modelCostInputSchema = z
  .object({
    model: z.string().trim().min(1).max(128),
    kind: z.enum(modelCostKinds),
    points_per_call: z.int().min(0).max(1_000_000).nullable().default(null),
    input_points_per_mtok: rate.nullable().default(null),
    output_points_per_mtok: rate.nullable().default(null),
    cache_read_points_per_mtok: rate.nullable().default(null),
    cache_write_points_per_mtok: rate.nullable().default(null),
    description: z.string().trim().max(255).nullable().default(null),
  })
  .refine((c) => (c.kind === 'fixed' ? c.points_per_call !== null : c.input_points_per_mtok !== null && c.output_points_per_mtok !== null), {
    message: 'fixed needs points_per_call; variable needs input and output rates',
  })
  .transform((c) =>
    c.kind === 'fixed'
      ? { ...c, input_points_per_mtok: null, output_points_per_mtok: null, cache_read_points_per_mtok: null, cache_write_points_per_mtok: null }
      : { ...c, points_per_call: null },
  )
export type ModelCostInput = z.input<typeof modelCostInputSchema>

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

export async function listModelCosts(db: Database): Promise<ModelCost[]> {
  const rows = await db.selectFrom('model_costs').selectAll().orderBy('model').execute()
  return rows.map(toModelCost)
}

/** Exact id first, then without a date suffix (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`); null if unpriced. */
export function pickModelCost(costs: ReadonlyMap<string, ModelCost>, model: string): ModelCost | null {
  return costs.get(model) ?? costs.get(model.replace(/-\d{8}$|-\d{4}-\d{2}-\d{2}$/, '')) ?? null
}

export interface TokenUsage {
  input_tokens: number
  output_tokens: number
  cache_read_tokens?: number
  cache_write_tokens?: number
}

/** Points for one call, rounded up so no call is free by rounding. */
export function pointsForUsage(cost: ModelCost, usage: TokenUsage): number {
  if (cost.kind === 'fixed') return cost.points_per_call ?? 0
  const input = cost.input_points_per_mtok ?? 0
  const perMillion =
    usage.input_tokens * input +
    usage.output_tokens * (cost.output_points_per_mtok ?? 0) +
    (usage.cache_read_tokens ?? 0) * (cost.cache_read_points_per_mtok ?? input) +
    (usage.cache_write_tokens ?? 0) * (cost.cache_write_points_per_mtok ?? input)
  return Math.ceil(perMillion / 1_000_000)
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
    description: row.description,
  }
}
