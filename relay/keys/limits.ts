/**
 * The owner's controls of an API key, enforced on the /v1 calls made with it
 * (docs/decisions/110): on/off and expiry (checked when the key authenticates, keys/service.ts),
 * the models it may call, points quotas (total and per UTC+8 day), requests per minute and calls
 * at once. And a team owner's caps on a member's points per hour and per day, whatever the
 * member calls with (docs/decisions/143).
 *
 * The counting limits live in the database so they hold across relays sharing one: a call of a
 * key with such a limit, or of a capped member, takes a lease (`call_leases`) in a transaction
 * that first locks the key's row (and the membership's), counts the leases (calls in flight) and
 * the calls recorded in the last minute, and compares the points counters with the quotas and
 * caps. The lease goes in the transaction that records the call (proxy/settlements.ts), so every
 * call is counted exactly once: as a lease while it runs, in the counters after. A call with
 * neither takes no lease and costs nothing more.
 */
import type { Selectable } from 'kysely'
import { sql } from 'kysely'
import type { ApiKeyLimits, ApiKeyUse } from '../contract/api-keys.ts'
import { newId } from '../db/ids.ts'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { ApiKeysTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { patternRegExp } from '../points/model-costs.ts'
import { dayMs, hourMs } from '../points/plan.ts'
import type { RelayServices } from '../services.ts'
import type { CallRecord } from '../proxy/call-log.ts'
import { ProxyError, proxyErrorStatus, type ClientApi } from '../proxy/client-errors.ts'
import { confirmApiKey, forgetApiKey } from './service.ts'
import { chargeUpfront, reservation, type Charge, type UpfrontCharge } from '../proxy/metering.ts'
import type { ModelCost } from '../contract/points.ts'

const minuteMs = 60_000
/** Quotas count days in UTC+8, as the usage chart does (docs/decisions/021). */
const dayOffsetMs = 8 * hourMs

export function dayOf(timestamp: number): number {
  return Math.floor((timestamp + dayOffsetMs) / dayMs)
}

/** The controls of a key as a call sees them (read with the key when it authenticates). */
export interface KeyControls {
  keyId: string
  allowedModels: RegExp[] | null
  /** Whether any counting limit is set: only then does a call take a lease. */
  counted: boolean
  /**
   * False when the key was taken from the process's cache (keys/service.ts): the call must
   * confirm it is still live, which its freeze does (docs/decisions/146).
   */
  confirmed: boolean
}

type ControlColumns = Pick<
  Selectable<ApiKeysTable>,
  'disabled_timestamp' | 'expires_timestamp' | 'points_quota' | 'daily_points_quota' | 'allowed_models' | 'rpm_limit' | 'concurrency_limit'
>

export function limitsOf(row: ControlColumns): ApiKeyLimits {
  return {
    enabled: row.disabled_timestamp === null,
    expires_timestamp: row.expires_timestamp,
    points_quota: row.points_quota,
    daily_points_quota: row.daily_points_quota,
    allowed_models: row.allowed_models === null ? null : (JSON.parse(row.allowed_models) as string[]),
    rpm_limit: row.rpm_limit,
    concurrency_limit: row.concurrency_limit,
  }
}

export function limitColumns(limits: ApiKeyLimits, now: number, current: number | null): ControlColumns {
  return {
    // Disabling again keeps the first time it was disabled.
    disabled_timestamp: limits.enabled ? null : (current ?? now),
    expires_timestamp: limits.expires_timestamp,
    points_quota: limits.points_quota,
    daily_points_quota: limits.daily_points_quota,
    allowed_models: limits.allowed_models === null ? null : JSON.stringify(limits.allowed_models),
    rpm_limit: limits.rpm_limit,
    concurrency_limit: limits.concurrency_limit,
  }
}

const parsedPatterns = new Map<string, RegExp[]>()

/**
 * The key's controls for a call, or a refusal (RelayError, so `GET /api/v1/usage` refuses the
 * same way) when the key is switched off or past its expiry.
 */
export function keyControls(row: ControlColumns & { id: string }, now: number, confirmed = true): KeyControls {
  if (row.disabled_timestamp !== null) throw new RelayError('api_key_disabled', 'the API key is disabled')
  if (row.expires_timestamp !== null && row.expires_timestamp <= now) throw new RelayError('api_key_expired', 'the API key has expired')
  let allowedModels: RegExp[] | null = null
  if (row.allowed_models !== null) {
    allowedModels = parsedPatterns.get(row.allowed_models) ?? null
    if (!allowedModels) {
      allowedModels = (JSON.parse(row.allowed_models) as string[]).map(patternRegExp)
      if (parsedPatterns.size >= 1000) parsedPatterns.clear()
      parsedPatterns.set(row.allowed_models, allowedModels)
    }
  }
  const counted = row.points_quota !== null || row.daily_points_quota !== null || row.rpm_limit !== null || row.concurrency_limit !== null
  return { keyId: row.id, allowedModels, counted, confirmed }
}

/** Whether the key may call the model (an OAuth token may call any). */
export function mayCall(key: KeyControls | null, model: string): boolean {
  return !key?.allowedModels || key.allowedModels.some((pattern) => pattern.test(model))
}

/** Refuses (403) a model the key may not call. */
export function allowModel(key: KeyControls | null, model: string): void {
  if (mayCall(key, model)) return
  throw new ProxyError('model_not_allowed', `This API key may not call ${model}: its owner limited it to other models on the portal's API keys page.`)
}

/** What a refused call is recorded with; the refusal adds the outcome, status and reason. */
export type CallContext = Omit<CallRecord, 'outcome' | 'status' | 'usage' | 'points' | 'shortfall' | 'providerId' | 'durationMs' | 'relayMs' | 'refusal'> & {
  api: ClientApi
  /** `performance.now()` when the call arrived. */
  started: number
  /** The client's upload, not the relay's time (docs/decisions/120). */
  uploadMs: number
}

/**
 * The key's checks, then the charge (metering.ts): the call's lease is taken before its points,
 * so a call the key's limits refuse never touches the ledger, and given back when the charge is
 * refused. A refusal is recorded as the call's outcome (`refused`, with its reason) and thrown.
 */
export async function chargeWithinKeyLimits(
  services: RelayServices,
  key: KeyControls | null,
  upfront: UpfrontCharge,
  call: CallContext,
): Promise<{ charge: Charge; leaseId: string | null }> {
  let leaseId: string | null = null
  try {
    allowModel(key, upfront.model)
    const capped = await memberCaps.isCapped(services.db, upfront.userId, services.clock.now())
    if (key?.counted || capped) leaseId = await takeLease(services, { keyId: key?.counted ? key.keyId : null, memberId: capped ? upfront.userId : null }, likelyPoints(upfront))
    // A key from the cache is confirmed by the freeze, or, when the call freezes nothing, on its own.
    const liveKey = key && !key.confirmed ? key.keyId : null
    const charge = await chargeUpfront(services, upfront, liveKey)
    if (charge.kind === 'free' && key) await confirmApiKey(services.db, key, services.clock)
    return { charge, leaseId }
  } catch (error) {
    if (leaseId !== null) {
      // A lease the database will not give back now (it is out of reach) stops counting after
      // STALE_HOLD_MINUTES; the call's own error is the one to answer.
      await deleteLease(services.db, { id: leaseId }).catch(() => undefined)
    }
    // The key is no longer live (RelayError, as authenticateApiKey refuses): refused as at
    // authentication, not recorded as a call.
    if (error instanceof RelayError && key) forgetApiKey(key.keyId)
    if (error instanceof ProxyError) {
      const { started, uploadMs, ...record } = call
      const durationMs = performance.now() - started
      void services.settlements.add({
        charge: { kind: 'free' },
        cost: freeCost,
        usage: null,
        leaseId: null,
        call: {
          ...record,
          outcome: 'refused',
          status: proxyErrorStatus(call.api, error.kind),
          providerId: null,
          usage: null,
          refusal: error.kind,
          durationMs,
          relayMs: durationMs - uploadMs,
        },
      })
    }
    throw error
  }
}

/** Never read: a refusal's charge is free. */
const freeCost: ModelCost = { model: '', kind: 'fixed', points_per_call: 0, input_points_per_mtok: null, output_points_per_mtok: null, cache_read_points_per_mtok: null, cache_write_points_per_mtok: null, description: null }

function likelyPoints({ cost, inputTokens, maxOutputTokens, shortfallCeiling, webSearches }: UpfrontCharge): number {
  return cost.kind === 'fixed' ? (cost.points_per_call ?? 0) : reservation(cost, inputTokens, maxOutputTokens, shortfallCeiling, webSearches).points
}

/**
 * Counts the key's calls and the member's points under their rows' locks (key first, as every
 * caller takes them) and takes one lease for both, or refuses with 429.
 */
async function takeLease(services: RelayServices, holder: { keyId: string | null; memberId: string | null }, points: number): Promise<string> {
  const { db, clock, config } = services
  return db.transaction().execute(async (trx) => {
    const now = clock.now()
    const staleBefore = now - config.staleHoldMinutes * minuteMs
    if (holder.keyId !== null) await checkKey(trx, holder.keyId, now, staleBefore)
    if (holder.memberId !== null) await checkMember(trx, holder.memberId, now, staleBefore)
    const id = newId()
    await trx.insertInto('call_leases').values({ id, key_id: holder.keyId, member_id: holder.memberId, points, create_timestamp: now }).execute()
    return id
  })
}

async function checkKey(trx: Database, keyId: string, now: number, staleBefore: number): Promise<void> {
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
  if (key.points_quota !== null && Number(key.points_used) + leases.points >= key.points_quota) {
    throw new ProxyError('key_quota_exhausted', `This API key has used its quota of ${key.points_quota} points: its owner can raise it on the portal's API keys page.`)
  }
  if (key.daily_points_quota !== null) {
    const today = dayOf(now)
    const used = (key.points_day === today ? Number(key.day_points_used) : 0) + leases.points
    if (used >= key.daily_points_quota) {
      throw new ProxyError('key_quota_exhausted', `This API key has used today's quota of ${key.daily_points_quota} points (days in UTC+8).`, {
        'retry-after': String(secondsUntil(dayEnd(today), now)),
      })
    }
  }
}

/** The team owner's caps: this hour's and today's charged points, plus the member's calls in flight. */
async function checkMember(trx: Database, userId: string, now: number, staleBefore: number): Promise<void> {
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
  if (member.hourly_points_cap !== null && (member.points_hour === hour ? Number(member.hour_points_used) : 0) + inFlight >= member.hourly_points_cap) {
    throw new ProxyError('member_cap_reached', `Your team's owner capped your use at ${member.hourly_points_cap} points an hour: this hour's are spent.`, {
      'retry-after': String(secondsUntil((hour + 1) * hourMs, now)),
    })
  }
  const today = dayOf(now)
  if (member.daily_points_cap !== null && (member.points_day === today ? Number(member.day_points_used) : 0) + inFlight >= member.daily_points_cap) {
    throw new ProxyError('member_cap_reached', `Your team's owner capped your use at ${member.daily_points_cap} points a day (days in UTC+8): today's are spent.`, {
      'retry-after': String(secondsUntil(dayEnd(today), now)),
    })
  }
}

export function hourOf(timestamp: number): number {
  return Math.floor(timestamp / hourMs)
}

/** When UTC+8 day `day` ends. */
function dayEnd(day: number): number {
  return (day + 1) * dayMs - dayOffsetMs
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
const deleteLease = prepared((db, args: { id: string }) => db.deleteFrom('call_leases').where('id', '=', args.id).returning('member_id'))
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

/** The current use of the user's keys, for the owner's page. */
export async function keysUse(db: Database, userId: string, keyIds: readonly string[], now: number, staleHoldMinutes: number): Promise<Map<string, Omit<ApiKeyUse, 'points_used' | 'day_points_used'>>> {
  const use = new Map(keyIds.map((id) => [id, { minute_calls: 0, in_flight: 0 }]))
  if (keyIds.length === 0) return use
  const [leases, calls] = await Promise.all([
    db
      .selectFrom('call_leases')
      .select(['key_id', (eb) => eb.fn.countAll<number>().as('in_flight'), sql<number | null>`sum(case when create_timestamp > ${now - minuteMs} then 1 else 0 end)`.as('last_minute')])
      .where('key_id', 'in', keyIds)
      .where('create_timestamp', '>=', now - staleHoldMinutes * minuteMs)
      .groupBy('key_id')
      .execute(),
    db
      .selectFrom('proxy_calls')
      .select(['key_id', (eb) => eb.fn.countAll<number>().as('calls')])
      .where('user_id', '=', userId)
      .where('create_timestamp', '>', now - minuteMs)
      .where('refusal', 'is', null)
      .where('key_id', 'is not', null)
      .groupBy('key_id')
      .execute(),
  ])
  for (const row of leases) {
    const entry = row.key_id === null ? undefined : use.get(row.key_id)
    if (entry) {
      entry.in_flight = Number(row.in_flight)
      entry.minute_calls += Number(row.last_minute ?? 0)
    }
  }
  for (const row of calls) {
    const entry = row.key_id === null ? undefined : use.get(row.key_id)
    if (entry) entry.minute_calls += Number(row.calls)
  }
  return use
}
