/**
 * What a relayed call costs, through the points ledger (relay/points/ledger.ts) only. Every
 * charged call is a hold, frozen before the call is forwarded (`frozen`) and settled after it:
 * `unfrozen` for the whole hold, `consumed` for what the call cost.
 * - a fixed-cost model's hold is its price, taken in full when an answer comes, given back when
 *   none does;
 * - a variable-cost model's hold is its likely cost, settled from the usage the provider
 *   reported, up to what the balance holds; the rest is the call's shortfall
 *   (docs/decisions/072-how-a-call-is-charged.md).
 * A hold is in the database from the start, so a relay that dies mid-call leaves it to the
 * stale-hold sweep, which gives it back (docs/decisions/072-how-a-call-is-charged.md): never a charge for a call that got
 * no answer, never a second one. Every row carries the model, so the points history and the usage
 * chart show relayed calls. The balance is taken with a guarded update under the account's lock,
 * so parallel calls can never spend a point twice or drive a balance below zero.
 */
import type { ModelCost } from '../contract/points.ts'
import { RelayError } from '../http/relay-error.ts'
import { freeze, maxPointsChange, settleAll, type LedgerServices } from '../points/ledger.ts'
import { itemisedCharge, pointsForUsage, type ItemisedCharge, type TokenUsage } from '../points/model-costs.ts'
import { pointsSummary } from '../points/summary.ts'
import { ProxyError } from './client-errors.ts'

export type Charge = { kind: 'free' } | { kind: 'hold'; holdId: string; accountId: string; points: number }

/** Output tokens a variable-cost call reserves for at most: a typical answer, not its whole bound. */
export const reservedOutputTokens = 4096

export interface UpfrontCharge {
  userId: string
  model: string
  cost: ModelCost
  /** For a variable cost: input tokens estimated from the request's size. */
  inputTokens: number
  /** For a variable cost: the request's output bound (`max_tokens`). */
  maxOutputTokens: number
  /** For a variable cost: the hosted web searches the request allows (dialects.ts `maxWebSearches`). */
  webSearches?: number
  /** The most the call may cost beyond the balance (`CALL_SHORTFALL_CEILING_POINTS`). */
  shortfallCeiling: number
  /** A call that costs nothing still needs a package in force (count_tokens). */
  packageRequired?: boolean
}

/**
 * What a variable-cost call reserves (docs/decisions/072-how-a-call-is-charged.md). `points`: its likely cost — the input
 * estimate, up to `reservedOutputTokens` of output and every web search it allows — or, when
 * more, what its whole output bound could cost less the shortfall ceiling. `atLeast`: the balance it needs to start; a balance
 * between the two is frozen whole. Either way the usage can exceed what was frozen by at most
 * the ceiling, so no call costs more than the balance plus the ceiling.
 */
export function reservation(
  cost: ModelCost,
  inputTokens: number,
  maxOutputTokens: number,
  shortfallCeiling: number,
  webSearches = 0,
): { points: number; atLeast: number } {
  const likely = pointsForUsage(cost, { input_tokens: inputTokens, output_tokens: Math.min(maxOutputTokens, reservedOutputTokens), web_search_requests: webSearches })
  const worst = pointsForUsage(cost, { input_tokens: inputTokens, output_tokens: maxOutputTokens, web_search_requests: webSearches })
  const points = Math.min(Math.max(likely, worst - shortfallCeiling), maxPointsChange)
  return { points, atLeast: Math.min(Math.max(1, worst - shortfallCeiling), points) }
}

/**
 * Holds the call's price (fixed) or likely cost (variable); refuses in the client's terms when it
 * cannot. `liveKey`: an API key for the freeze to confirm (points/ledger.ts `freeze`).
 */
export async function chargeUpfront(
  services: LedgerServices,
  { userId, model, cost, inputTokens, maxOutputTokens, shortfallCeiling, webSearches, packageRequired }: UpfrontCharge,
  liveKey: string | null = null,
): Promise<Charge> {
  const fixed = cost.kind === 'fixed'
  const { points, atLeast } = fixed
    ? { points: Math.min(cost.points_per_call ?? 0, maxPointsChange), atLeast: Math.min(cost.points_per_call ?? 0, maxPointsChange) }
    : reservation(cost, inputTokens, maxOutputTokens, shortfallCeiling, webSearches)
  if (points <= 0) {
    if (packageRequired) {
      const refused = packageRefusal(await pointsSummary(services.db, userId, services.clock.now()))
      if (refused) throw refused
    }
    return { kind: 'free' }
  }
  try {
    const hold = await freeze(services, { userId, amount: points, model, atLeast, liveKey })
    return { kind: 'hold', holdId: hold.holdId, accountId: hold.accountId, points: hold.amount }
  } catch (error) {
    if (error instanceof RelayError && error.reason === 'points_insufficient') {
      // A variable-cost call needs `atLeast`; it is more than 1 only when its output bound could cost far more than the balance.
      throw await refusal(services, userId, atLeast, !fixed && atLeast > 1)
    }
    throw error
  }
}

/**
 * What an answer's usage cost, line by line, and the points to settle its hold with; no answer
 * costs nothing. A fixed price is its points_per_call whatever the usage.
 */
export function actualCharge(cost: ModelCost, usage: TokenUsage | null): { charge: ItemisedCharge | null; actual: number } {
  const charge = usage ? itemisedCharge(cost, usage) : null
  return { charge, actual: Math.min(charge?.points ?? 0, maxPointsChange) }
}

/** How a charge ended: the points taken, what the usage cost beyond them (the balance ran out), and its lines. */
export interface Settled {
  points: number
  shortfall: number
  charge: ItemisedCharge | null
}

/**
 * Ends charges, in the order given: `usage` is what each answer used, or null when no answer came
 * (the points are given back in full). Pass a transaction as `db` to record the calls with it; the
 * holds are settled together, in one statement on PostgreSQL (points/ledger.ts `settleAll`).
 */
export async function settleCharges(
  services: LedgerServices,
  ends: ReadonlyArray<{ charge: Charge; cost: ModelCost; usage: TokenUsage | null }>,
): Promise<Settled[]> {
  const actuals = ends.map(({ cost, usage }) => actualCharge(cost, usage))
  const holds = ends.flatMap(({ charge }, i) => (charge.kind === 'hold' ? [{ holdId: charge.holdId, actual: actuals[i]!.actual }] : []))
  const settled = holds.length > 0 ? await settleAll(services, holds) : []
  let next = 0
  return ends.map(({ charge }, i) => {
    const { charge: lines, actual } = actuals[i]!
    if (charge.kind === 'free') return { points: 0, shortfall: 0, charge: lines }
    const { charged } = settled[next++]!
    return { points: charged, shortfall: actual - charged, charge: lines }
  })
}

/** Why a user without a package in force is refused (403), or null when theirs is in force. */
function packageRefusal(summary: Awaited<ReturnType<typeof pointsSummary>>): ProxyError | null {
  switch (summary.status) {
    case 'none':
      return new ProxyError('no_subscription', 'No package: redeem a code or join a team in the portal to use the relay.')
    case 'expired':
      return new ProxyError('no_subscription', `Your package expired at ${iso(summary.end_timestamp)}: renew it in the portal.`)
    case 'disabled':
      return new ProxyError('no_subscription', 'Your package is disabled: contact support through a ticket in the portal.')
    case 'normal':
      return null
  }
}

/** Why the ledger said no: no package in force (403), or too few points (429 until the next refill). */
async function refusal(services: LedgerServices, userId: string, needed: number, boundedByWorstCase: boolean): Promise<ProxyError> {
  const now = services.clock.now()
  const summary = await pointsSummary(services.db, userId, now)
  const noPackage = packageRefusal(summary)
  if (noPackage) return noPackage
  // No immediate retries by the SDKs: nothing changes before the refill.
  const headers: Record<string, string> = { 'x-should-retry': 'false' }
  const asked = `Not enough points: this call needs ${needed} point${needed === 1 ? '' : 's'}`
  if (needed > summary.points_limit) {
    // No refill can help; a call whose output bound could cost far more than the balance reserves for it.
    const hint = boundedByWorstCase ? ' Ask for fewer output tokens (max_tokens) to reserve less.' : ''
    return new ProxyError('insufficient_points', `${asked}, more than your package holds (${summary.points_limit}).${hint}`, headers)
  }
  const next = summary.next_refill_timestamp
  if (next === null) return new ProxyError('insufficient_points', `${asked} and the balance is ${summary.balance}. No refill comes before the package ends.`, headers)
  headers['retry-after'] = String(Math.max(1, Math.ceil((next - now) / 1000)))
  return new ProxyError(
    'insufficient_points',
    `${asked} and the balance is ${summary.balance}. The next refill (+${summary.forecast.next_refill_points} points) comes at ${iso(next)}.`,
    headers,
  )
}

function iso(timestamp: number | null): string {
  return timestamp === null ? 'an unknown time' : new Date(timestamp).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
