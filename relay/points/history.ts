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
      .select(['id', 'type', 'change', 'balance_after', 'model', 'reason', 'create_timestamp'])
      .where(visible)
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
  return { items: rows, total: Number(count.total), page: page.page, pageSize: page.pageSize }
}
