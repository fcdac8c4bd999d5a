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
  // Rows of no hold as they are; a hold's rows (all of one account) as one line: its newest row's
  // time, `seq` and, below, id and balance; their net change; `frozen` while the call runs (its
  // only row), else `consumed`.
  const single = db
    .selectFrom('points_ledger')
    .select(['id', 'type', 'change', 'balance_after', 'model', 'reason', 'create_timestamp', 'account_id', 'seq', 'hold_id'])
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
      eb.fn.max('account_id').as('account_id'),
      eb.fn.max('seq').as('seq'),
      'hold_id',
    ])
    .where(visible)
    .where('hold_id', 'is not', null)
    .groupBy('hold_id')
  const [rows, count] = await Promise.all([
    db
      .selectFrom(single.unionAll(perCall).as('line'))
      .selectAll()
      .orderBy('create_timestamp', 'desc')
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
  const lines = inCommitOrder(rows.map((row) => ({ ...row, seq: Number(row.seq) })))
  const held = lines.filter((row) => row.hold_id !== null)
  const [newest, calls] = await Promise.all([
    // Each call's line shows its newest row: the highest `seq` of its account.
    held.length === 0
      ? []
      : db
          .selectFrom('points_ledger')
          .select(['id', 'balance_after', 'hold_id'])
          .where((eb) => eb.or(held.map((row) => eb.and([eb('account_id', '=', row.account_id), eb('seq', '=', row.seq)]))))
          .execute(),
    held.length === 0 ? [] : db.selectFrom('proxy_calls').select(['id', 'hold_id']).where('hold_id', 'in', held.map((row) => row.hold_id!)).where('user_id', '=', userId).execute(),
  ])
  const newestOf = new Map(newest.map((row) => [row.hold_id, row]))
  const callOf = new Map(calls.map((call) => [call.hold_id, call.id]))
  const items = lines.map(({ hold_id, account_id: _account, seq: _seq, ...row }) => ({
    ...row,
    change: Number(row.change),
    ...(hold_id === null ? {} : { id: newestOf.get(hold_id)?.id ?? row.id, balance_after: newestOf.get(hold_id)?.balance_after ?? 0 }),
    call_id: hold_id === null ? null : (callOf.get(hold_id) ?? null),
  }))
  const total = Number(count.rows) - Number(count.held) + Number(count.calls)
  return { items, total, page: page.page, pageSize: page.pageSize }
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
