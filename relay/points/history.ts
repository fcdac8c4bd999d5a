/**
 * GET /api/user/points/history: newest first, the caller's own rows (every account they held,
 * and what they did in their team's pool) plus the pool-wide rows of their team since they joined.
 * A relayed call's rows (frozen, unfrozen, consumed: one hold) read as one line, its net charge,
 * linked to the call (docs/decisions/111-bounded-history-reads.md); the call's detail lists the rows themselves.
 *
 * Bounded by the page, not the history (docs/decisions/111-bounded-history-reads.md). Lines are read newest first
 * along the user's index (a call's line takes its place from its newest row), then each call's
 * rows by its hold. A page reads from where it starts: a shallow page from the newest row; a deep
 * one from its day, found by the user's days (usage-days.ts) and the pool's rows per day, then
 * from its place within that day, found along `points_ledger_user_lines`. The total is the sum
 * of those days.
 */
import { sql } from 'kysely'
import { pageOffset, type PageQuery } from '../contract/paging.ts'
import type { PointsEntryType, PointsHistory } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import { findMembership } from './plan.ts'
import { dayStart } from '../contract/days.ts'
import { linePlaceRow, usageDayOf } from './usage-days.ts'

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

/** The team pool a member's history shows: its account's own rows since they joined. */
interface Pool {
  accountId: string
  since: number
}

/**
 * Where a page's read starts: after the lines placed at or after `before` (null: none), and
 * `skip` lines further.
 */
interface Start {
  before: number | null
  skip: number
}

/**
 * Lines a page walks past (about three rows each) rather than look up its place: a shallow
 * page's offset, or a deep page's within its day. Looking a place up costs three statements more
 * (on PostgreSQL, round trips); two default pages' walk is about the rows page 2 reads anyway.
 * Chosen, not measured (docs/decisions/111-bounded-history-reads.md).
 */
const walkedAtMost = 20

export async function pointsHistory(db: Database, userId: string, page: PageQuery): Promise<PointsHistory> {
  const team = await findMembership(db, userId)
  const teamAccount = team ? await db.selectFrom('points_accounts').select('id').where('team_id', '=', team.id).executeTakeFirst() : undefined
  const pool = teamAccount && team ? { accountId: teamAccount.id, since: team.joined_timestamp } : null
  const offset = pageOffset(page)
  const daysRead = lineDays(db, userId, pool)
  // A shallow page is read from the newest row while the days are; a deep one needs them to start.
  const start = offset <= walkedAtMost ? { before: null, skip: offset } : await deepStart(db, userId, pool, await daysRead, offset)
  const skip = start?.skip ?? 0
  const wanted = skip + page.pageSize
  const [own, poolRows, days] = await Promise.all([
    start ? ownLines(db, userId, wanted, start.before) : [],
    start && pool ? poolLines(db, pool, wanted, start.before) : [],
    daysRead,
  ])
  const total = days.reduce((sum, day) => sum + day.lines, 0)
  const newestFirst = (a: Row, b: Row) => b.create_timestamp - a.create_timestamp || (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0)
  const firsts = [...own, ...poolRows].sort(newestFirst).slice(skip, wanted)
  const holdIds = firsts.flatMap((row) => (row.hold_id === null ? [] : [row.hold_id]))
  // By the holds alone (the user's, found among their rows): with the user's id too, a planner
  // without statistics (SQLite's, unless ANALYZE ran) walks all of the user's rows instead.
  const [heldRows, calls] = await Promise.all([
    holdIds.length === 0 ? [] : db.selectFrom('points_ledger').select(columns).where('hold_id', 'in', holdIds).execute(),
    holdIds.length === 0 ? [] : db.selectFrom('proxy_calls').select(['id', 'hold_id']).where('hold_id', 'in', holdIds).execute(),
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
 * The history's lines per UTC+8 day, newest day first: the user's days (usage-days.ts) and the
 * pool's own rows since they joined.
 */
async function lineDays(db: Database, userId: string, pool: Pool | null): Promise<{ day: number; lines: number }[]> {
  const [own, shared] = await Promise.all([
    db.selectFrom('points_usage_days').select(['day', 'lines']).where('user_id', '=', userId).execute(),
    pool
      ? db
          .selectFrom('points_ledger')
          .select([usageDayOf(sql.ref('create_timestamp')).as('day'), (eb) => eb.fn.countAll<number | string>().as('lines')])
          .where('account_id', '=', pool.accountId)
          .where('user_id', 'is', null)
          .where('create_timestamp', '>=', pool.since)
          .groupBy(usageDayOf(sql.ref('create_timestamp')))
          .execute()
      : [],
  ])
  const lines = new Map<number, number>()
  for (const row of [...own, ...shared]) lines.set(Number(row.day), (lines.get(Number(row.day)) ?? 0) + Number(row.lines))
  return [...lines].map(([day, count]) => ({ day, lines: count })).sort((a, b) => b.day - a.day)
}

/**
 * Where a page past `walkedAtMost` lines starts: at the end of the day its first line is on,
 * or at its place within that day; null past the last line.
 */
async function deepStart(db: Database, userId: string, pool: Pool | null, days: { day: number; lines: number }[], offset: number): Promise<Start | null> {
  let later = 0
  for (const { day, lines } of days) {
    if (later + lines > offset) return offset - later <= walkedAtMost ? { before: dayStart(day + 1), skip: offset - later } : placeInDay(db, userId, pool, day, offset - later)
    later += lines
  }
  return null
}

/**
 * The start of the line `skip` lines into `day`, newest first, found without reading the lines
 * before it: the rows that stand for a line (`linePlaceRow`) are counted along their index, with
 * the day's lines that have none there (the pool's own rows, the user's calls still running).
 * A line's place is its newest row's time; a time is a clean boundary, ties included, so the
 * start is the time just after that of the row found, and the lines counted after it are exact.
 */
async function placeInDay(db: Database, userId: string, pool: Pool | null, day: number, skip: number): Promise<Start> {
  const from = dayStart(day)
  const end = dayStart(day + 1)
  const placed = () =>
    db
      .selectFrom('points_ledger')
      .where('user_id', '=', userId)
      .where(linePlaceRow)
      .where('create_timestamp', '>=', from)
      .where('create_timestamp', '<', end)
  const [poolRows, running] = await Promise.all([
    pool
      ? db
          .selectFrom('points_ledger')
          .select('create_timestamp')
          .where('account_id', '=', pool.accountId)
          .where('user_id', 'is', null)
          .where('create_timestamp', '>=', Math.max(from, pool.since))
          .where('create_timestamp', '<', end)
          .execute()
      : [],
    // The user's running calls, whatever their day (a handful): a bound on the time here could
    // lead a planner to a range of everyone's rows by time rather than to the holds.
    db
      .selectFrom('points_ledger')
      .select('create_timestamp')
      .where('hold_id', 'in', (eb) => eb.selectFrom('points_holds').select('id').where('settled_timestamp', 'is', null).where('user_id', '=', userId))
      .where('type', '=', 'frozen')
      .execute(),
  ])
  const others = [...poolRows, ...running].map((row) => row.create_timestamp).filter((at) => at >= from && at < end)
  // `skip` less all the day's other lines: however many of those lie after the row found, at
  // most `skip` lines do.
  const along = skip - others.length
  const found = along > 0 ? await placed().select('create_timestamp').orderBy('create_timestamp', 'desc').limit(1).offset(along).executeTakeFirst() : undefined
  // Rows written since the days were read can leave fewer than counted: the day's end is a start too.
  if (!found) return { before: end, skip }
  const at = found.create_timestamp
  const after = await placed()
    .select((eb) => eb.fn.countAll<number | string>().as('rows'))
    .where('create_timestamp', '>', at)
    .executeTakeFirstOrThrow()
  return { before: at + 1, skip: skip - Number(after.rows) - others.filter((other) => other > at).length }
}

/**
 * The first `wanted` lines of the user's own rows placed before `before` (null: all), each as its
 * newest row: rows newest first, in batches along `points_ledger_user`, until that many lines (or
 * the end) are seen.
 */
async function ownLines(db: Database, userId: string, wanted: number, before: number | null): Promise<Row[]> {
  const seen = new Set<string>()
  const lines: Row[] = []
  let after: { at: number; id: string } | null = null
  while (lines.length < wanted) {
    const limit = (wanted - lines.length) * 3 + 10
    const rows: Row[] = await db
      .selectFrom('points_ledger')
      .select(columns)
      .where('user_id', '=', userId)
      .$if(before !== null, (qb) => qb.where('create_timestamp', '<', before!))
      .$if(after !== null, (qb) =>
        qb.where('create_timestamp', '<=', after!.at).where((eb) => eb.or([eb('create_timestamp', '<', after!.at), eb('id', '<', after!.id)])),
      )
      .orderBy('create_timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
    // A call with a row at or after `before` is placed there: its older rows make no line here.
    if (before !== null) for (const hold of await placedLater(db, rows, seen, before)) seen.add(hold)
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

/** The calls of `rows`, not yet seen, with a row at or after `before`: a few rows each, by their holds. */
async function placedLater(db: Database, rows: Row[], seen: Set<string>, before: number): Promise<string[]> {
  const holds = [...new Set(rows.flatMap((row) => (row.hold_id === null || seen.has(row.hold_id) ? [] : [row.hold_id])))]
  if (holds.length === 0) return []
  // No bound on the time in the WHERE: a planner could prefer a range of the ledger's times to the holds.
  const later = await db.selectFrom('points_ledger').select('hold_id').where('hold_id', 'in', holds).groupBy('hold_id').having((eb) => eb.fn.max('create_timestamp'), '>=', before).execute()
  return later.map((row) => row.hold_id!)
}

/** The team pool's own rows (no member's: refills, expiry) since the user joined and before `before`, newest first. */
function poolLines(db: Database, pool: Pool, wanted: number, before: number | null): Promise<Row[]> {
  return db
    .selectFrom('points_ledger')
    .select(columns)
    .where('account_id', '=', pool.accountId)
    .where('user_id', 'is', null)
    .where('create_timestamp', '>=', pool.since)
    .$if(before !== null, (qb) => qb.where('create_timestamp', '<', before!))
    .orderBy('create_timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(wanted)
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, seq: Number(row.seq) })))
}

/**
 * Newest first, in commit order (docs/decisions/020-points-ledger.md). Times never go back within an account, so
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
