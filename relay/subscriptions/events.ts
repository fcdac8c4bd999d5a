/** The subscription history (GET /api/user/subscriptions/history) is written here, one row per user and event. */
import type { Database } from '../db/open-database.ts'
import { newId } from '../db/ids.ts'
import type { SubscriptionEventsTable } from '../db/schema.ts'

export async function recordSubscriptionEvent(
  trx: Database,
  event: { userIds: readonly string[]; subscriptionId: string; action: SubscriptionEventsTable['action']; now: number },
): Promise<void> {
  if (event.userIds.length === 0) return
  await trx
    .insertInto('subscription_events')
    .values(
      event.userIds.map((userId) => ({
        id: newId(),
        user_id: userId,
        subscription_id: event.subscriptionId,
        action: event.action,
        create_timestamp: event.now,
      })),
    )
    .execute()
}

/** Everyone a subscription's events concern: its holder, or every member of its team. */
export async function subscriptionUsers(db: Database, subscription: { user_id: string | null; team_id: string | null }): Promise<string[]> {
  if (subscription.user_id) return [subscription.user_id]
  const members = await db.selectFrom('team_members').select('user_id').where('team_id', '=', subscription.team_id!).execute()
  return members.map((m) => m.user_id)
}
