/**
 * What operators do to model prices, from the console (relay/admin/ops-routes.ts) and the CLI
 * (points/cli.ts) alike: the change and its audit row (docs/decisions/116-operator-audit-log.md) in one transaction.
 */
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { typicalCall, type AdminPrice } from '../contract/admin-ops.ts'
import type { ModelCost } from '../contract/points.ts'
import { RelayError } from '../http/relay-error.ts'
import type { Database } from '../db/open-database.ts'
import { findModelCost, isModelPattern, listModelCosts, pointsForUsage, removeModelCost, setModelCost, type ModelCostInput } from './model-costs.ts'

/** A price with what the typical call costs at it (docs/decisions/115-operator-console.md). */
export function adminPrice(cost: ModelCost): AdminPrice {
  return { ...cost, pattern: isModelPattern(cost.model), typical_points: pointsForUsage(cost, typicalCall) }
}

export async function listPrices(db: Database): Promise<AdminPrice[]> {
  return (await listModelCosts(db)).map(adminPrice)
}

/** A price as the audit log keeps it: the fields it sets, without the empty ones. */
function audited(cost: ModelCost | undefined) {
  return cost && Object.fromEntries(Object.entries(cost).filter(([, value]) => value !== null && value !== undefined))
}

export async function setPriceAsOperator(db: Database, operator: Operator, input: ModelCostInput, now: number): Promise<AdminPrice> {
  return db.transaction().execute(async (trx) => {
    const before = await findModelCost(trx, input.model)
    const after = await setModelCost(trx, now, input)
    await recordAudit(trx, operator, { action: 'price.set', target: { kind: 'price', ref: after.model }, before: audited(before), after: audited(after) }, now)
    return adminPrice(after)
  })
}

/** Prices ticked on the console's list, in one transaction with one audit row each; a model without a price is left alone and not counted. */
export async function removePricesAsOperator(db: Database, operator: Operator, models: string[], now: number): Promise<{ changed: number }> {
  return db.transaction().execute(async (trx) => {
    let changed = 0
    for (const model of new Set(models)) {
      const before = await findModelCost(trx, model)
      if (!before || !(await removeModelCost(trx, model))) continue
      await recordAudit(trx, operator, { action: 'price.remove', target: { kind: 'price', ref: before.model }, before: audited(before) }, now)
      changed++
    }
    return { changed }
  })
}

/** The relays refuse the model once no other row prices it. */
export async function removePriceAsOperator(db: Database, operator: Operator, model: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await findModelCost(trx, model)
    if (!before || !(await removeModelCost(trx, model))) throw new RelayError('not_found', `no price for ${model}`)
    await recordAudit(trx, operator, { action: 'price.remove', target: { kind: 'price', ref: before.model }, before: audited(before) }, now)
  })
}
