/**
 * GET /api/user/points/history: newest first, the caller's own rows (every account they held,
 * and what they did in their team's pool) plus the pool-wide rows of their team since they joined.
 * A relayed call's rows (frozen, unfrozen, consumed: one hold) read as one line, its net charge,
 * linked to the call (docs/decisions/112); the call's detail lists the rows themselves.
 */
import { sql, type ExpressionBuilder } from 'kysely'
import { pageOffset, type PageQuery } from '../contract/paging.ts'
import type { PointsEntryType, PointsHistory } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import type { Tables } from '../db/schema.ts'
import { findMembership } from './plan.ts'

export async function pointsHistory(db: Database, userId: string, page: PageQuery): Promise<PointsHistory> {
  const team = await findMembership(db, userId)
  const teamAccount = team
    ? await db.selectFrom('points_accounts').select('id').where('team_id', '=', team.id).executeTakeFirst()
    : undefined
  const visible = (eb: ExpressionBuilder<Tables, 'points_ledger'>) =>
    teamAccount && team
      ? eb.or([
          eb('user_id', '=', userId),
          eb.and([eb('account_id', '=', teamAccount.id), eb('user_id', 'is', null), eb('create_timestamp', '>=', team.joined_timestamp)]),
        ])
      : eb('user_id', '=', userId)
  // Rows of no hold as they are; a hold's rows as one line: its newest row's id, time and
  // balance, their net change, and `frozen` while the call runs (its only row), else `consumed`.
  const single = db
    .selectFrom('points_ledger')
    .select(['id', 'type', 'change', 'balance_after', 'model', 'reason', 'create_timestamp', 'hold_id'])
    .where(visible)
    .where('hold_id', 'is', null)
  const perCall = db
    .selectFrom('points_ledger')
    .select((eb) => [
      eb.fn.max('id').as('id'),
      sql<PointsEntryType>`case when count(*) = 1 then min(type) else 'consumed' end`.as('type'),
      eb.fn.sum<number>('change').as('change'),
      sql<number>`0`.as('balance_after'),
      eb.fn.max('model').as('model'),
      sql<string | null>`null`.as('reason'),
      eb.fn.max('create_timestamp').as('create_timestamp'),
      'hold_id',
    ])
    .where(visible)
    .where('hold_id', 'is not', null)
    .groupBy('hold_id')
  const [rows, count] = await Promise.all([
    db
      .selectFrom(single.unionAll(perCall).as('line'))
      .selectAll()
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(pageOffset(page))
      .execute(),
    db
      .selectFrom('points_ledger')
      .select((eb) => [eb.fn.countAll<number | string>().as('rows'), eb.fn.count<number | string>('hold_id').as('held'), eb.fn.count<number | string>('hold_id').distinct().as('calls')])
      .where(visible)
      .executeTakeFirstOrThrow(),
  ])
  const holds = rows.flatMap((row) => (row.hold_id === null ? [] : [row.hold_id]))
  const [balances, calls] = await Promise.all([
    holds.length === 0 ? [] : db.selectFrom('points_ledger').select(['id', 'balance_after']).where('id', 'in', rows.filter((row) => row.hold_id !== null).map((row) => row.id)).execute(),
    holds.length === 0 ? [] : db.selectFrom('proxy_calls').select(['id', 'hold_id']).where('hold_id', 'in', holds).where('user_id', '=', userId).execute(),
  ])
  const balanceOf = new Map(balances.map((row) => [row.id, row.balance_after]))
  const callOf = new Map(calls.map((call) => [call.hold_id, call.id]))
  const items = rows.map(({ hold_id, ...row }) => ({
    ...row,
    change: Number(row.change),
    balance_after: hold_id === null ? row.balance_after : (balanceOf.get(row.id) ?? 0),
    call_id: hold_id === null ? null : (callOf.get(hold_id) ?? null),
  }))
  const total = Number(count.rows) - Number(count.held) + Number(count.calls)
  return { items, total, page: page.page, pageSize: page.pageSize }
}
