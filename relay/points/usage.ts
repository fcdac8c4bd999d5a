/**
 * Points used, always summed from the ledger (never a counter that could drift from it): the
 * net of `consumed` rows, refunds included, as a positive number.
 */
import { sql } from 'kysely'
import type { Database } from '../db/open-database.ts'
import type { Plan } from './plan.ts'

const netConsumed = sql<number | string | null>`-sum(change)`

/** What `userId` used in the plan's current subscription: the whole personal account, or their share of the team pool. */
export async function usedInPlan(db: Database, plan: Plan, userId: string): Promise<number> {
  const row = await db
    .selectFrom('points_ledger')
    .select(netConsumed.as('used'))
    .where('account_id', '=', plan.account.id)
    .where('type', '=', 'consumed')
    .$if(plan.team !== null, (qb) =>
      qb.where('user_id', '=', userId).where('create_timestamp', '>=', plan.subscription.start_timestamp),
    )
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
  const rows = await db
    .selectFrom('points_ledger')
    .select(['account_id', netConsumed.as('used')])
    .where('account_id', 'in', accountIds)
    .where('type', '=', 'consumed')
    .groupBy('account_id')
    .execute()
  return new Map(rows.map((r) => [r.account_id, Number(r.used ?? 0)]))
}

/** Everything `userId` ever used, across every package and team. */
export async function usedEver(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('points_ledger')
    .select(netConsumed.as('used'))
    .where('user_id', '=', userId)
    .where('type', '=', 'consumed')
    .executeTakeFirst()
  return Number(row?.used ?? 0)
}
