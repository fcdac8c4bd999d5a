/**
 * The owner's controls of an API key as stored on its row (docs/decisions/050-api-keys-and-their-limits.md): on/off and expiry
 * (checked when the key authenticates, keys/service.ts), the models it may call, points quotas
 * (total and per UTC+8 day), requests per minute and calls at once; mapped here between the row,
 * the contract's `ApiKeyLimits` and the `KeyControls` a call carries, with the key-use figures of
 * the owner's page. The calls enforce them in proxy/call-leases.ts and proxy/key-charge.ts.
 */
import type { BlockList } from 'node:net'
import type { Selectable } from 'kysely'
import { sql } from 'kysely'
import type { ApiKeyLimits, ApiKeyUse } from '../contract/api-keys.ts'
import type { Database } from '../db/open-database.ts'
import type { ApiKeysTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { patternRegExp } from '../points/model-costs.ts'
import { hourMs } from '../contract/days.ts'
import { networksOf } from './networks.ts'

const minuteMs = 60_000

/** The controls of a key as a call sees them (read with the key when it authenticates). */
export interface KeyControls {
  keyId: string
  allowedModels: RegExp[] | null
  /** Where the key may be used from (keys/networks.ts); null: anywhere. */
  allowedNetworks: BlockList | null
  /** Whether any counting limit is set: only then does a call take a lease. */
  counted: boolean
  /**
   * False when the key was taken from the process's cache (keys/service.ts): the call must
   * confirm it is still live, which its freeze does (docs/decisions/108-money-rules-on-postgres.md).
   */
  confirmed: boolean
}

type ControlColumns = Pick<
  Selectable<ApiKeysTable>,
  'disabled_timestamp' | 'expires_timestamp' | 'points_quota' | 'daily_points_quota' | 'allowed_models' | 'rpm_limit' | 'concurrency_limit' | 'allowed_ips'
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
    allowed_ips: row.allowed_ips === null ? null : (JSON.parse(row.allowed_ips) as string[]),
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
    allowed_ips: limits.allowed_ips === null ? null : JSON.stringify(limits.allowed_ips),
  }
}

const parsedPatterns = new Map<string, RegExp[]>()

/**
 * A credential refused though its owner is known: a key switched off, expired or used from an
 * address it may not be, an OAuth token without `api`. Still the RelayError authentication
 * throws, with the caller, so the /v1 refusal is recorded as that caller's call (proxy/key-charge.ts).
 */
export class KnownCallerRefusal extends RelayError {
  constructor(
    error: RelayError,
    readonly caller: { userId: string; keyId: string | null; clientId: string | null },
  ) {
    super(error.reason, error.message, error.details)
  }
}

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
  const allowedNetworks = row.allowed_ips === null ? null : networksOf(row.allowed_ips)
  return { keyId: row.id, allowedModels, allowedNetworks, counted, confirmed }
}

/** Whether the key may call the model (an OAuth token may call any). */
export function mayCall(key: KeyControls | null, model: string): boolean {
  return !key?.allowedModels || key.allowedModels.some((pattern) => pattern.test(model))
}

export function hourOf(timestamp: number): number {
  return Math.floor(timestamp / hourMs)
}


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
