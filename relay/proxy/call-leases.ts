/**
 * The counting limits of a call: an API key's quotas, requests per minute and calls at once
 * (keys/limits.ts), and a team owner's caps on a member's points per hour and per day, whatever
 * the member calls with (docs/decisions/050-api-keys-and-their-limits.md, docs/decisions/023-packages-teams-codes-resets.md).
 *
 * They live in the database so they hold across relays sharing one: a call of a key with such a
 * limit, or of a capped member, takes a lease (`call_leases`) in a transaction that first locks
 * the key's row (and the membership's), counts the leases (calls in flight) and the calls
 * recorded in the last minute, and compares the points counters with the quotas and caps. The
 * lease goes in the transaction that records the call (settlements.ts), so every call is counted
 * exactly once: as a lease while it runs, in the counters after. A call with neither takes no
 * lease and costs nothing more.
 */
import { sql } from 'kysely'
import type { Clock } from '../clock.ts'
import type { RelayConfig } from '../config.ts'
import { newId } from '../db/ids.ts'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import { dayOf, dayStart, hourMs } from '../contract/days.ts'
import { hourOf } from '../keys/limits.ts'
import { ProxyError } from './client-errors.ts'

const minuteMs = 60_000

/**
 * Counts the key's calls and the member's points under their rows' locks (key first, as every
 * caller takes them) and takes one lease for both, or refuses with 429.
 */
export async function takeLease(
  services: { db: Database; clock: Clock; config: Pick<RelayConfig, 'staleHoldMinutes'> },
  holder: { keyId: string | null; memberId: string | null },
  points: number,
): Promise<string> {
  const { db, clock, config } = services
  return db.transaction().execute(async (trx) => {
    const now = clock.now()
    const staleBefore = now - config.staleHoldMinutes * minuteMs
    if (holder.keyId !== null) await checkKey(trx, holder.keyId, now, staleBefore, points)
    if (holder.memberId !== null) await checkMember(trx, holder.memberId, now, staleBefore, points)
    const id = newId()
    await trx.insertInto('call_leases').values({ id, key_id: holder.keyId, member_id: holder.memberId, points, create_timestamp: now }).execute()
    return id
  })
}

async function checkKey(trx: Database, keyId: string, now: number, staleBefore: number, points: number): Promise<void> {
  const key = await trx
    .selectFrom('api_keys')
    .select(['points_quota', 'daily_points_quota', 'rpm_limit', 'concurrency_limit', 'points_used', 'day_points_used', 'points_day'])
    .where('id', '=', keyId)
    .$if(isPostgres(trx), (qb) => qb.forNoKeyUpdate())
    .executeTakeFirstOrThrow()
  // A lease older than a stale hold belongs to a relay that died mid-call (proxy/stale-holds.ts).
  const leases = await leasesOf(trx, 'key_id', keyId, staleBefore, now - minuteMs)
  if (key.concurrency_limit !== null && leases.inFlight >= key.concurrency_limit) {
    throw new ProxyError(
      'key_rate_limited',
      `This API key already has ${leases.inFlight} call${leases.inFlight === 1 ? '' : 's'} in flight, its limit: wait for one to end.`,
      { 'retry-after': '1' },
    )
  }
  if (key.rpm_limit !== null) {
    const recent = await trx
      .selectFrom('proxy_calls')
      .select((eb) => [eb.fn.countAll<number>().as('calls'), eb.fn.min<number>('create_timestamp').as('oldest')])
      .where('key_id', '=', keyId)
      .where('create_timestamp', '>', now - minuteMs)
      .where('refusal', 'is', null)
      .executeTakeFirstOrThrow()
    const calls = Number(recent.calls) + leases.lastMinute
    if (calls >= key.rpm_limit) {
      const oldest = Math.min(...[recent.oldest, leases.oldestInMinute].filter((t) => t !== null).map(Number))
      throw new ProxyError('key_rate_limited', `This API key is limited to ${key.rpm_limit} requests per minute.`, {
        'retry-after': String(Math.max(1, Math.ceil((oldest + minuteMs - now) / 1000))),
      })
    }
  }
  const total = key.points_quota === null ? null : pastLimit(key.points_quota, Number(key.points_used) + leases.points, points)
  if (total) {
    throw new ProxyError('key_quota_exhausted', `${total('This API key has', `its quota of ${key.points_quota} points`)}: its owner can raise it on the portal's API keys page.`)
  }
  const today = dayOf(now)
  const daily = key.daily_points_quota === null ? null : pastLimit(key.daily_points_quota, (key.points_day === today ? Number(key.day_points_used) : 0) + leases.points, points)
  if (daily) {
    throw new ProxyError('key_quota_exhausted', `${daily('This API key has', `today's quota of ${key.daily_points_quota} points (days in UTC+8)`)}.`, {
      'retry-after': String(secondsUntil(dayStart(today + 1), now)),
    })
  }
}

/** The team owner's caps: this hour's and today's charged points, plus the member's calls in flight and this one. */
async function checkMember(trx: Database, userId: string, now: number, staleBefore: number, points: number): Promise<void> {
  const member = await trx
    .selectFrom('team_members')
    .select(['hourly_points_cap', 'daily_points_cap', 'hour_points_used', 'points_hour', 'day_points_used', 'points_day'])
    .where('user_id', '=', userId)
    .$if(isPostgres(trx), (qb) => qb.forNoKeyUpdate())
    .executeTakeFirst()
  // Left the cache's view (caps removed, or no longer a member): nothing to count.
  if (!member) return
  const { points: inFlight } = await leasesOf(trx, 'member_id', userId, staleBefore, now - minuteMs)
  const hour = hourOf(now)
  const hourly = member.hourly_points_cap === null ? null : pastLimit(member.hourly_points_cap, (member.points_hour === hour ? Number(member.hour_points_used) : 0) + inFlight, points)
  if (hourly) {
    throw new ProxyError('member_cap_reached', `Your team's owner capped your use at ${member.hourly_points_cap} points an hour: ${hourly('you have', "this hour's")}.`, {
      'retry-after': String(secondsUntil((hour + 1) * hourMs, now)),
    })
  }
  const today = dayOf(now)
  const daily = member.daily_points_cap === null ? null : pastLimit(member.daily_points_cap, (member.points_day === today ? Number(member.day_points_used) : 0) + inFlight, points)
  if (daily) {
    throw new ProxyError('member_cap_reached', `Your team's owner capped your use at ${member.daily_points_cap} points a day (days in UTC+8): ${daily('you have', "today's")}.`, {
      'retry-after': String(secondsUntil(dayStart(today + 1), now)),
    })
  }
}

/**
 * Null when a call holding `points` fits under `limit` beside the `taken` points (counted and in
 * flight); else the refusal's words, given who `has` it and `what` limit. A quota or cap is a promise: a call
 * whose hold could pass it is refused up front, not let through to overshoot (docs/money.md).
 */
function pastLimit(limit: number, taken: number, points: number): ((has: string, what: string) => string) | null {
  const left = limit - taken
  if (left > 0 && points <= left) return null
  return left <= 0 ? (has, what) => `${has} used ${what}` : (has, what) => `${has} ${left} point${left === 1 ? '' : 's'} left of ${what}, and this call needs ${points}`
}

function secondsUntil(time: number, now: number): number {
  return Math.max(1, Math.ceil((time - now) / 1000))
}

async function leasesOf(db: Database, column: 'key_id' | 'member_id', holder: string, staleBefore: number, minuteAgo: number) {
  const row = await db
    .selectFrom('call_leases')
    .select((eb) => [
      eb.fn.countAll<number>().as('in_flight'),
      sql<number | null>`sum(points)`.as('points'),
      sql<number | null>`sum(case when create_timestamp > ${minuteAgo} then 1 else 0 end)`.as('last_minute'),
      sql<number | null>`min(case when create_timestamp > ${minuteAgo} then create_timestamp end)`.as('oldest'),
    ])
    .where(column, '=', holder)
    .where('create_timestamp', '>=', staleBefore)
    .executeTakeFirstOrThrow()
  return {
    inFlight: Number(row.in_flight),
    points: Number(row.points ?? 0),
    lastMinute: Number(row.last_minute ?? 0),
    oldestInMinute: row.oldest === null ? null : Number(row.oldest),
  }
}

/**
 * In the transaction recording calls (proxy/settlements.ts): each call's lease goes, and the
 * points charged are added to its key's counters and, for a capped member, the membership's;
 * rows in id order so two groups of settlements cannot deadlock on them.
 */
export async function endLeasedCalls(trx: Database, calls: ReadonlyArray<{ keyId: string | null; leaseId: string | null; points: number }>, now: number): Promise<void> {
  const byMember = new Map<string, number>()
  for (const { leaseId, points } of calls) {
    if (leaseId === null) continue
    const { rows } = await deleteLease(trx, { id: leaseId })
    const memberId = rows[0]?.member_id ?? null
    if (memberId !== null && points > 0) byMember.set(String(memberId), (byMember.get(String(memberId)) ?? 0) + points)
  }
  const byKey = new Map<string, number>()
  for (const { keyId, points } of calls) if (keyId !== null && points > 0) byKey.set(keyId, (byKey.get(keyId) ?? 0) + points)
  const day = dayOf(now)
  for (const keyId of [...byKey.keys()].sort(byId)) await countPoints(trx, { keyId, points: byKey.get(keyId)!, day })
  const hour = hourOf(now)
  for (const userId of [...byMember.keys()].sort(byId)) await countMemberPoints(trx, { userId, points: byMember.get(userId)!, hour, day })
}

function byId(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

// Prepared (db/prepared.ts): on every settlement.
export const deleteLease = prepared((db, args: { id: string }) => db.deleteFrom('call_leases').where('id', '=', args.id).returning('member_id'))
const countPoints = prepared((db, args: { keyId: string; points: number; day: number }) =>
  db
    .updateTable('api_keys')
    .set((eb) => ({
      points_used: eb('points_used', '+', args.points),
      day_points_used: eb.case().when('points_day', '=', args.day).then(eb('day_points_used', '+', args.points)).else(args.points).end(),
      points_day: args.day,
    }))
    .where('id', '=', args.keyId),
)
const countMemberPoints = prepared((db, args: { userId: string; points: number; hour: number; day: number }) =>
  db
    .updateTable('team_members')
    .set((eb) => ({
      hour_points_used: eb.case().when('points_hour', '=', args.hour).then(eb('hour_points_used', '+', args.points)).else(args.points).end(),
      points_hour: args.hour,
      day_points_used: eb.case().when('points_day', '=', args.day).then(eb('day_points_used', '+', args.points)).else(args.points).end(),
      points_day: args.day,
    }))
    .where('user_id', '=', args.userId),
)

/**
 * Which users are capped team members, per process for a few seconds: every call asks, and
 * nearly every answer is no. A cap set here applies at once (the setter forgets the user); one
 * set through another relay within `ttlMs`. The caps themselves are read under the lock.
 */
class MemberCapsCache {
  readonly #ttlMs = 5_000
  readonly #entries = new Map<string, { capped: boolean; until: number }>()

  async isCapped(db: Database, userId: string, now: number): Promise<boolean> {
    const entry = this.#entries.get(userId)
    if (entry && entry.until > now) return entry.capped
    const { rows } = await cappedMember(db, { userId })
    if (this.#entries.size >= 10_000) this.#entries.clear()
    this.#entries.set(userId, { capped: rows.length > 0, until: now + this.#ttlMs })
    return rows.length > 0
  }

  forget(userId: string): void {
    this.#entries.delete(userId)
  }
}

export const memberCaps = new MemberCapsCache()

const cappedMember = prepared((db, args: { userId: string }) =>
  db
    .selectFrom('team_members')
    .select('user_id')
    .where('user_id', '=', args.userId)
    .where((eb) => eb.or([eb('hourly_points_cap', 'is not', null), eb('daily_points_cap', 'is not', null)])),
)
