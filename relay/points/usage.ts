/**
 * Points used: the net of `consumed` rows, refunds included, as a positive number. An account's
 * own total is kept with its balance (`points_accounts.consumed`, written in the same UPDATE as
 * each ledger row, so it cannot drift from the rows; docs/decisions/020-points-ledger.md); a member's share of a
 * team pool is summed over the current subscription's rows.
 */
import { sql } from 'kysely'
import type { Database } from '../db/open-database.ts'
import type { Plan } from './plan.ts'

const netConsumed = sql<number | string | null>`-sum(change)`

/** What `userId` used in the plan's current subscription: the whole personal account, or their share of the team pool. */
export async function usedInPlan(db: Database, plan: Plan, userId: string): Promise<number> {
  if (plan.team === null) return plan.account.consumed
  const row = await db
    .selectFrom('points_ledger')
    .select(netConsumed.as('used'))
    .where('account_id', '=', plan.account.id)
    .where('type', '=', 'consumed')
    .where('user_id', '=', userId)
    .where('create_timestamp', '>=', plan.subscription.start_timestamp)
    .executeTakeFirst()
  return Number(row?.used ?? 0)
}

/** Used by each member of a team in its current subscription, by user id. */
export async function usedByMembers(db: Database, plan: Plan): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('points_ledger')
    .select(['user_id', netConsumed.as('used')])
    .where('account_id', '=', plan.account.id)
    .where('type', '=', 'consumed')
    .where('create_timestamp', '>=', plan.subscription.start_timestamp)
    .groupBy('user_id')
    .execute()
  return new Map(rows.filter((r) => r.user_id !== null).map((r) => [r.user_id!, Number(r.used ?? 0)]))
}

/** Used per personal account, by account id. */
export async function usedByAccounts(db: Database, accountIds: readonly string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map()
  const rows = await db.selectFrom('points_accounts').select(['id', 'consumed']).where('id', 'in', accountIds).execute()
  return new Map(rows.map((r) => [r.id, r.consumed]))
}

/** Everything `userId` ever used, across every package and team: a row per day they used points (usage-days.ts), not per call. */
export async function usedEver(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('points_usage_days')
    .select((eb) => eb.fn.sum<number | string | null>('consumed').as('used'))
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(row?.used ?? 0)
}
