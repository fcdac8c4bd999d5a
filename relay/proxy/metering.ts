/**
 * What a relayed call costs, through the points ledger (relay/points/ledger.ts) only:
 * - a fixed-cost model's points are spent before the call is forwarded (one `consumed` row) and
 *   given back if no answer comes;
 * - a variable-cost model's estimate is frozen before the call (`frozen`), then the hold is
 *   settled from the usage the provider reported: `unfrozen` for the whole estimate, `consumed`
 *   for the actual cost. Every row carries the model, so the points history and the usage chart
 *   show relayed calls.
 * Both take the balance with a guarded update under the account's lock, so parallel calls can
 * never spend a point twice or drive a balance below zero.
 */
import type { ModelCost } from '../contract/points.ts'
import { RelayError } from '../http/relay-error.ts'
import { freeze, maxPointsChange, refund, settle, spend, type LedgerServices } from '../points/ledger.ts'
import { pointsForUsage, type TokenUsage } from '../points/model-costs.ts'
import { pointsSummary } from '../points/summary.ts'
import { ProxyError } from './client-errors.ts'

export type Charge =
  | { kind: 'free' }
  | { kind: 'fixed'; accountId: string; userId: string; model: string; points: number }
  | { kind: 'hold'; holdId: string; accountId: string; points: number }

export interface UpfrontCharge {
  userId: string
  model: string
  cost: ModelCost
  /** For a variable cost: the usage to reserve for (input from the request's size, output from its bound). */
  estimate: TokenUsage
}

/** Takes (fixed) or reserves (variable) the call's points; refuses in the client's terms when it cannot. */
export async function chargeUpfront(services: LedgerServices, { userId, model, cost, estimate }: UpfrontCharge): Promise<Charge> {
  const points = Math.min(pointsForUsage(cost, estimate), maxPointsChange)
  if (points <= 0) return { kind: 'free' }
  try {
    if (cost.kind === 'fixed') {
      const entry = await spend(services, { userId, amount: points, model })
      return { kind: 'fixed', accountId: entry.accountId, userId, model, points }
    }
    const hold = await freeze(services, { userId, amount: points, model })
    return { kind: 'hold', holdId: hold.holdId, accountId: hold.accountId, points }
  } catch (error) {
    if (error instanceof RelayError && error.reason === 'points_insufficient') throw await refusal(services, userId, points, cost.kind === 'variable')
    throw error
  }
}

/**
 * Ends the charge: `usage` is what the answer used, or null when no answer came (the points are
 * given back in full). Returns the points finally charged. Pass a transaction as `db` to record
 * the call with it.
 */
export async function settleCharge(services: LedgerServices, charge: Charge, cost: ModelCost, usage: TokenUsage | null): Promise<number> {
  switch (charge.kind) {
    case 'free':
      return 0
    case 'fixed':
      if (usage) return charge.points
      await refund(services, { accountId: charge.accountId, userId: charge.userId, amount: charge.points, model: charge.model })
      return 0
    case 'hold': {
      const actual = usage ? Math.min(pointsForUsage(cost, usage), maxPointsChange) : 0
      return (await settle(services, { holdId: charge.holdId, actual })).charged
    }
  }
}

/** Why the ledger said no: no package in force (403), or too few points (429 until the next refill). */
async function refusal(services: LedgerServices, userId: string, needed: number, variable: boolean): Promise<ProxyError> {
  const now = services.clock.now()
  const summary = await pointsSummary(services.db, userId, now)
  switch (summary.status) {
    case 'none':
      return new ProxyError('no_subscription', 'No package: redeem a code or join a team in the portal to use the relay.')
    case 'expired':
      return new ProxyError('no_subscription', `Your package expired at ${iso(summary.end_timestamp)}: renew it in the portal.`)
    case 'disabled':
      return new ProxyError('no_subscription', 'Your package is disabled: contact support through a ticket in the portal.')
    case 'normal':
      break
  }
  // No immediate retries by the SDKs: nothing changes before the refill.
  const headers: Record<string, string> = { 'x-should-retry': 'false' }
  const asked = `Not enough points: this call needs ${needed} points`
  if (needed > summary.points_limit) {
    // No refill can help; a variable-cost call reserves for its whole output bound.
    const hint = variable ? ' Ask for fewer output tokens (max_tokens) to reserve less.' : ''
    return new ProxyError('insufficient_points', `${asked}, more than your package holds (${summary.points_limit}).${hint}`, headers)
  }
  const next = summary.next_refill_timestamp
  if (next === null) return new ProxyError('insufficient_points', `${asked} and the balance is ${summary.balance}. No refill comes before the package ends.`, headers)
  const refill = Math.min(summary.hour_points, Math.max(0, summary.points_limit - summary.balance - summary.frozen_points))
  headers['retry-after'] = String(Math.max(1, Math.ceil((next - now) / 1000)))
  return new ProxyError(
    'insufficient_points',
    `${asked} and the balance is ${summary.balance}. The next refill (+${refill} points) comes at ${iso(next)}.`,
    headers,
  )
}

function iso(timestamp: number | null): string {
  return timestamp === null ? 'an unknown time' : new Date(timestamp).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
