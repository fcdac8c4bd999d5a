/**
 * Membership days of a referral reward: the end of the user's personal subscription in force
 * moves later. Team members' plans belong to their team, so they get no days; neither does a
 * user without a subscription in force (there is nothing to extend).
 */
import type { Database } from '../db/open-database.ts'
import { catchUpLocked } from '../points/catch-up.ts'
import { lockUser } from '../points/locks.ts'
import { findMembership, findPersonalPlan, isInForce } from '../points/plan.ts'
import { dayMs } from '../contract/days.ts'

/** Extends by `days`; returns the days actually given (0 or `days`). */
export async function extendMembership(trx: Database, userId: string, days: number, now: number): Promise<number> {
  if (days <= 0) return 0
  await lockUser(trx, userId)
  if (await findMembership(trx, userId)) return 0
  const found = await findPersonalPlan(trx, userId)
  // Caught up first, so a subscription that has just run out is not revived.
  const plan = found ? await catchUpLocked(trx, found, now) : null
  if (!plan || !isInForce(plan.subscription)) return 0
  await trx
    .updateTable('subscriptions')
    .set({ end_timestamp: plan.subscription.end_timestamp + days * dayMs })
    .where('id', '=', plan.subscription.id)
    .execute()
  return days
}
