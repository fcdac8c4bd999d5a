/**
 * GET /api/user/points/history: newest first, the caller's own rows (every account they held,
 * and what they did in their team's pool) plus the pool-wide rows of their team since they joined.
 * A relayed call's rows (frozen, unfrozen, consumed: one hold) read as one line, its net charge,
 * linked to the call (docs/decisions/112); the call's detail lists the rows themselves.
 *
 * Bounded by the page, not the history (docs/decisions/139): rows are read newest first along
 * the user's index until the page's lines are known (a call's line takes its place from its
 * newest row), then each call's rows by its hold; the total is the sum of the user's days
 * (usage-days.ts) and the count of the pool's own rows.
 */
import { pageOffset, type PageQuery } from '../contract/paging.ts'
import type { PointsEntryType, PointsHistory } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import { findMembership } from './plan.ts'

const columns = ['id', 'type', 'change', 'balance_after', 'model', 'reason', 'create_timestamp', 'account_id', 'seq', 'hold_id'] as const

interface Row {
  id: string
  type: PointsEntryType
  change: number
  balance_after: number
  model: string | null
  reason: string | null
  create_timestamp: number
  account_id: string
  seq: number
  hold_id: string | null
}

export async function pointsHistory(db: Database, userId: string, page: PageQuery): Promise<PointsHistory> {
  const team = await findMembership(db, userId)
  const teamAccount = team ? await db.selectFrom('points_accounts').select('id').where('team_id', '=', team.id).executeTakeFirst() : undefined
  const pool = teamAccount && team ? { accountId: teamAccount.id, since: team.joined_timestamp } : null
  const wanted = pageOffset(page) + page.pageSize
  const [own, poolRows, total] = await Promise.all([ownLines(db, userId, wanted), pool ? poolLines(db, pool, wanted) : [], historyTotal(db, userId, pool)])
  const newestFirst = (a: Row, b: Row) => b.create_timestamp - a.create_timestamp || (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0)
  const firsts = [...own, ...poolRows].sort(newestFirst).slice(pageOffset(page), wanted)
  const holdIds = firsts.flatMap((row) => (row.hold_id === null ? [] : [row.hold_id]))
  const [heldRows, calls] = await Promise.all([
    holdIds.length === 0 ? [] : db.selectFrom('points_ledger').select(columns).where('hold_id', 'in', holdIds).where('user_id', '=', userId).execute(),
    holdIds.length === 0 ? [] : db.selectFrom('proxy_calls').select(['id', 'hold_id']).where('hold_id', 'in', holdIds).where('user_id', '=', userId).execute(),
  ])
  const rowsOf = new Map<string, Row[]>()
  for (const row of heldRows) rowsOf.set(row.hold_id!, [...(rowsOf.get(row.hold_id!) ?? []), { ...row, seq: Number(row.seq) }])
  // A call's line: its newest row's time, `seq`, id and balance; the net change of its rows;
  // `frozen` while the call runs (its only row), else `consumed`.
  const lines = firsts.map((first) => {
    if (first.hold_id === null) return first
    const rows = (rowsOf.get(first.hold_id) ?? [first]).sort((a, b) => b.seq - a.seq)
    const newest = rows[0]!
    return {
      ...newest,
      type: rows.length === 1 ? newest.type : ('consumed' as const),
      change: rows.reduce((sum, row) => sum + row.change, 0),
      model: rows.reduce<string | null>((max, row) => (row.model !== null && (max === null || row.model > max) ? row.model : max), null),
      reason: null,
      create_timestamp: Math.max(...rows.map((row) => row.create_timestamp)),
    }
  })
  const callOf = new Map(calls.map((call) => [call.hold_id, call.id]))
  const items = inCommitOrder(lines).map(({ hold_id, account_id: _account, seq: _seq, ...row }) => ({
    ...row,
    call_id: hold_id === null ? null : (callOf.get(hold_id) ?? null),
  }))
  return { items, total, page: page.page, pageSize: page.pageSize }
}

/**
 * The first `wanted` lines of the user's own rows, each as its newest row: rows newest first,
 * in batches along `points_ledger_user`, until that many lines (or the end) are seen.
 */
async function ownLines(db: Database, userId: string, wanted: number): Promise<Row[]> {
  const seen = new Set<string>()
  const lines: Row[] = []
  let after: { at: number; id: string } | null = null
  while (lines.length < wanted) {
    const limit = (wanted - lines.length) * 3 + 10
    const rows: Row[] = await db
      .selectFrom('points_ledger')
      .select(columns)
      .where('user_id', '=', userId)
      .$if(after !== null, (qb) =>
        qb.where('create_timestamp', '<=', after!.at).where((eb) => eb.or([eb('create_timestamp', '<', after!.at), eb('id', '<', after!.id)])),
      )
      .orderBy('create_timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
    for (const row of rows) {
      const line = row.hold_id ?? `row ${row.id}`
      if (seen.has(line)) continue
      seen.add(line)
      lines.push({ ...row, seq: Number(row.seq) })
      if (lines.length === wanted) break
    }
    if (rows.length < limit) break
    const last = rows[rows.length - 1]!
    after = { at: last.create_timestamp, id: last.id }
  }
  return lines
}

/** The team pool's own rows (no member's: refills, expiry) since the user joined, newest first. */
function poolLines(db: Database, pool: { accountId: string; since: number }, wanted: number): Promise<Row[]> {
  return db
    .selectFrom('points_ledger')
    .select(columns)
    .where('account_id', '=', pool.accountId)
    .where('user_id', 'is', null)
    .where('create_timestamp', '>=', pool.since)
    .orderBy('create_timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(wanted)
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, seq: Number(row.seq) })))
}

/** Lines across all pages: the user's days (usage-days.ts), and the pool's own rows since they joined. */
async function historyTotal(db: Database, userId: string, pool: { accountId: string; since: number } | null): Promise<number> {
  const [own, shared] = await Promise.all([
    db
      .selectFrom('points_usage_days')
      .select((eb) => eb.fn.sum<number | string | null>('lines').as('lines'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    pool
      ? db
          .selectFrom('points_ledger')
          .select((eb) => eb.fn.countAll<number | string>().as('rows'))
          .where('account_id', '=', pool.accountId)
          .where('user_id', 'is', null)
          .where('create_timestamp', '>=', pool.since)
          .executeTakeFirst()
      : undefined,
  ])
  return Number(own?.lines ?? 0) + Number(shared?.rows ?? 0)
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
