/**
 * Brings a plan up to date with the clock: the refills due since the last one, then the expiry
 * if the end has passed. Runs with the account row locked, recomputing from the locked row, so
 * parallel readers add each hour exactly once.
 */
import type { Database } from '../db/open-database.ts'
import { appendEntry } from './entries.ts'
import { endSubscription } from './expiry.ts'
import { inTransaction, lockAccount } from './locks.ts'
import { findPlan, isInForce, lockPlan, type Plan } from './plan.ts'
import { refillDue, type RefillTerms } from './refill.ts'

/** Anything to write? Cheap, lock-free: most reads within the hour need no transaction. */
export function isDue(plan: Plan, now: number): boolean {
  if (!isInForce(plan.subscription)) return false
  return now >= plan.subscription.end_timestamp || refillDue(plan.account, refillTerms(plan), now).hours > 0
}

/** Locks the plan's account and applies what is due; returns the plan as it now stands. */
export async function catchUpLocked(trx: Database, plan: Plan, now: number): Promise<Plan> {
  const account = await lockAccount(trx, plan.account.id)
  // The subscription may have ended while this caller waited for the lock.
  const subscription = await trx
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '=', plan.subscription.id)
    .executeTakeFirstOrThrow()
  return applyDue(trx, { ...plan, account, subscription }, now)
}

/** Inside a transaction: the user's plan, locked (lockPlan) and caught up; null when they never held a package. */
export async function lockedPlan(trx: Database, userId: string, now: number): Promise<Plan | null> {
  const plan = await lockPlan(trx, userId)
  return plan && applyDue(trx, plan, now)
}

/** The refills due and the expiry, applied to a plan read under its account's lock. */
async function applyDue(trx: Database, plan: Plan, now: number): Promise<Plan> {
  const { account, subscription } = plan
  let current = plan
  if (!isInForce(subscription)) return current

  const refill = refillDue(account, refillTerms(plan), now)
  if (refill.hours > 0) {
    await trx.updateTable('points_accounts').set({ last_refill_timestamp: refill.lastRefill }).where('id', '=', account.id).execute()
    let balance = account.balance
    if (refill.points > 0) {
      ;({ balance } = await appendEntry(trx, {
        accountId: account.id,
        userId: subscription.user_id,
        type: 'refilled',
        change: refill.points,
        now: refill.lastRefill,
      }))
    }
    current = { ...current, account: { ...account, balance, last_refill_timestamp: refill.lastRefill } }
  }
  if (now >= subscription.end_timestamp) {
    current = await endSubscription(trx, current, { at: subscription.end_timestamp, action: 'expired', reason: null })
  }
  return current
}

/** The user's plan, up to date; null when they never held a package. */
export async function currentPlan(db: Database, userId: string, now: number): Promise<Plan | null> {
  const plan = await findPlan(db, userId)
  return plan && upToDate(db, plan, now)
}

/** `plan` caught up; opens a transaction only when something is due. */
export function upToDate(db: Database, plan: Plan, now: number): Promise<Plan> {
  return isDue(plan, now) ? inTransaction(db, (trx) => catchUpLocked(trx, plan, now)) : Promise.resolve(plan)
}

function refillTerms({ pkg, subscription }: Pick<Plan, 'pkg' | 'subscription'>): RefillTerms {
  return { hour_points: pkg.hour_points, points_limit: pkg.points_limit, end_timestamp: subscription.end_timestamp }
}
