/**
 * Ending a subscription (docs/architecture.md §6): at its end timestamp, or early when a redemption or a team
 * join replaces it. Its status becomes `expired` and the account's remaining points expire with
 * an `expired` row; points frozen for calls in flight expire when those calls settle.
 */
import type { Database } from '../db/open-database.ts'
import type { Plan } from './plan.ts'
import { appendEntry } from './entries.ts'
import { recordSubscriptionEvent, subscriptionUsers } from '../subscriptions/events.ts'

export interface Ending {
  /** When it ended: its end timestamp, or now for a replacement. */
  at: number
  action: 'expired' | 'cancelled'
  /** Ledger reason for the expired points. */
  reason: string | null
}

/** Call with the account locked; returns the plan as it now stands. */
export async function endSubscription(trx: Database, plan: Plan, ending: Ending): Promise<Plan> {
  const { subscription, account } = plan
  await trx
    .updateTable('subscriptions')
    .set({ status: 'expired', ended_timestamp: ending.at })
    .where('id', '=', subscription.id)
    .execute()
  let balance = account.balance
  if (balance > 0) {
    ;({ balance } = await appendEntry(trx, {
      accountId: account.id,
      userId: subscription.user_id,
      type: 'expired',
      change: -balance,
      reason: ending.reason,
      now: ending.at,
    }))
  }
  await recordSubscriptionEvent(trx, {
    userIds: await subscriptionUsers(trx, subscription),
    subscriptionId: subscription.id,
    action: ending.action,
    now: ending.at,
  })
  return {
    ...plan,
    subscription: { ...subscription, status: 'expired', ended_timestamp: ending.at },
    account: { ...account, balance },
  }
}
