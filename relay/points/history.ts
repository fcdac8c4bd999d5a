/**
 * GET /api/user/points/history: newest first, the caller's own rows (every account they held,
 * and what they did in their team's pool) plus the pool-wide rows of their team since they joined.
 */
import type { ExpressionBuilder } from 'kysely'
import { pageOffset, type PageQuery } from '../contract/paging.ts'
import type { PointsHistory } from '../contract/points.ts'
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
  const [rows, count] = await Promise.all([
    db
      .selectFrom('points_ledger')
      .select(['id', 'type', 'change', 'balance_after', 'model', 'reason', 'create_timestamp', 'account_id', 'seq'])
      .where(visible)
      .orderBy('create_timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(pageOffset(page))
      .execute(),
    db
      .selectFrom('points_ledger')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where(visible)
      .executeTakeFirstOrThrow(),
  ])
  const items = inCommitOrder(rows).map(({ account_id: _account, seq: _seq, ...row }) => row)
  return { items, total: Number(count.total), page: page.page, pageSize: page.pageSize }
}

/**
 * Newest first, in commit order (docs/decisions/089). Times never go back within an account, so
 * time orders its rows up to ties; rows of one account in one millisecond — possibly from two
 * relays, whose ids sort by worker number, not by commit — go by their `seq`. Rows of different
 * accounts in one millisecond (a package replaced) keep id order: one relay wrote them, in order.
 */
export function inCommitOrder<Row extends { create_timestamp: number; account_id: string; seq: number }>(rows: Row[]): Row[] {
  const ordered = [...rows]
  for (let start = 0; start < ordered.length; ) {
    let end = start + 1
    while (end < ordered.length && ordered[end]!.create_timestamp === ordered[start]!.create_timestamp) end += 1
    const byAccount = new Map<string, Row[]>()
    for (const row of ordered.slice(start, end)) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), row])
    for (const accountRows of byAccount.values()) accountRows.sort((a, b) => b.seq - a.seq)
    // Each account's rows go back to the places its rows held, newest seq first.
    for (let i = start; i < end; i += 1) ordered[i] = byAccount.get(ordered[i]!.account_id)!.shift()!
    start = end
  }
  return ordered
}
