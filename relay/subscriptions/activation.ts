/**
 * Starting a subscription: the row, its points account (a team's pool is reused) credited with
 * the package's points, and the history event.
 * Callers hold the locks and have ended whatever this replaces.
 */
import type { Selectable } from 'kysely'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { SubscriptionEventsTable, SubscriptionsTable } from '../db/schema.ts'
import { appendEntry } from '../points/entries.ts'
import { dayMs } from '../contract/days.ts'
import { pointsReasons } from '../contract/points.ts'
import type { PackageRow } from './packages.ts'
import { recordSubscriptionEvent, subscriptionUsers } from './events.ts'

export interface Activation {
  holder: { userId: string } | { teamId: string }
  pkg: PackageRow
  action: SubscriptionEventsTable['action']
  /** The ledger reason of the package's points: `activation` unless an operator's trial (trial.ts). */
  reason?: string
  now: number
}

export async function startSubscription(trx: Database, activation: Activation): Promise<Selectable<SubscriptionsTable>> {
  const { pkg, now } = activation
  const userId = 'userId' in activation.holder ? activation.holder.userId : null
  const teamId = 'teamId' in activation.holder ? activation.holder.teamId : null
  const subscription: Selectable<SubscriptionsTable> = {
    id: newId(),
    user_id: userId,
    team_id: teamId,
    package_id: pkg.id,
    status: 'normal',
    start_timestamp: now,
    end_timestamp: now + pkg.validity_days * dayMs,
    ended_timestamp: null,
    create_timestamp: now,
  }
  await trx.insertInto('subscriptions').values(subscription).execute()

  // A personal subscription has an account of its own; a team keeps one pool through all its
  // subscriptions (teams/teams.ts), refilled from the new one's start.
  const pool = teamId ? await trx.selectFrom('points_accounts').select('id').where('team_id', '=', teamId).executeTakeFirst() : undefined
  const accountId = pool?.id ?? newId()
  if (pool) {
    await trx.updateTable('points_accounts').set({ last_refill_timestamp: now }).where('id', '=', pool.id).execute()
  } else {
    await trx
      .insertInto('points_accounts')
      .values({
        id: accountId,
        subscription_id: teamId ? null : subscription.id,
        team_id: teamId,
        balance: 0,
        frozen: 0,
        entries: 0,
        last_entry_timestamp: 0,
        consumed: 0,
        last_refill_timestamp: now,
        create_timestamp: now,
      })
      .execute()
  }
  await appendEntry(trx, {
    accountId,
    userId,
    type: 'earned',
    change: pkg.points_limit,
    reason: activation.reason ?? pointsReasons.activation,
    now,
  })
  await recordSubscriptionEvent(trx, {
    userIds: await subscriptionUsers(trx, subscription),
    subscriptionId: subscription.id,
    action: activation.action,
    now,
  })
  return subscription
}
