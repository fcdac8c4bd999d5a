/**
 * API keys: minted with a recognisable prefix, stored as a SHA-256 digest, shown in full once
 * (docs/decisions/050-api-keys-and-their-limits.md). `authenticateApiKey` is the metered proxy's hot path: one indexed read
 * (none for a metered call on PostgreSQL whose key was read a moment ago, see `cachedKeys`), and a
 * write at most once a minute per key to keep "last used" fresh.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { generateRandomString, type RandomReader } from '@oslojs/crypto/random'
import type { Selectable } from 'kysely'
import type { Clock } from '../clock.ts'
import { apiKeyBounds, apiKeyPattern, apiKeyPrefix, type ApiKey, type ApiKeyLimits, type ApiKeyUse, type CreatedApiKey } from '../contract/api-keys.ts'
import { newId } from '../db/ids.ts'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { ApiKeysTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { lockUser } from '../points/locks.ts'
import { dayOf } from '../contract/days.ts'
import { keyControls, keysUse, KnownCallerRefusal, limitColumns, limitsOf, type KeyControls } from './limits.ts'

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const randomLength = 40
const lastUsedResolutionMs = 60_000

const cryptoRandom: RandomReader = { read: (bytes) => crypto.getRandomValues(bytes) }

function hashKey(rawKey: string): string {
  return createHash('sha256').update(rawKey).digest('hex')
}

function maskKey(last4: string): string {
  return `${apiKeyPrefix}${'*'.repeat(8)}${last4}`
}

const idle = { minute_calls: 0, in_flight: 0 }

function toApiKey(row: Selectable<ApiKeysTable>, now: number, use: Pick<ApiKeyUse, 'minute_calls' | 'in_flight'> = idle): ApiKey {
  return {
    id: row.id,
    name: row.name,
    masked_key: maskKey(row.last4),
    create_timestamp: row.create_timestamp,
    last_used_timestamp: row.last_used_timestamp,
    limits: limitsOf(row),
    use: {
      points_used: Number(row.points_used),
      day_points_used: row.points_day === dayOf(now) ? Number(row.day_points_used) : 0,
      ...use,
    },
  }
}

/** `staleHoldMinutes`: a call in flight longer than that no longer counts against its key (proxy/call-leases.ts). */
export async function listApiKeys(db: Database, userId: string, now: number, staleHoldMinutes: number): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .execute()
  const use = await keysUse(db, userId, rows.map((row) => row.id), now, staleHoldMinutes)
  return rows.map((row) => toApiKey(row, now, use.get(row.id)))
}

/** Replaces the controls of one of the caller's keys (keys/limits.ts); another user's key is a 404. */
export async function setApiKeyLimits(db: Database, clock: Clock, userId: string, keyId: string, limits: ApiKeyLimits): Promise<ApiKey> {
  const now = clock.now()
  // A key set to have ended already would die at once under a "saved" answer: surely a slip.
  if (limits.expires_timestamp !== null && limits.expires_timestamp <= now) throw new RelayError('api_key_expiry_past')
  const row = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('api_keys')
      .select('disabled_timestamp')
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    if (!current) throw new RelayError('not_found', 'API key not found')
    forgetApiKey(keyId)
    return trx
      .updateTable('api_keys')
      .set(limitColumns(limits, now, current.disabled_timestamp))
      .where('id', '=', keyId)
      .returningAll()
      .executeTakeFirstOrThrow()
  })
  return toApiKey(row, now)
}

/**
 * Creates a key and returns it in full, the only time it is ever available. The count and the
 * insert share a transaction holding the user's lock, so parallel creates cannot pass the
 * per-user limit together.
 */
export async function createApiKey(db: Database, clock: Clock, userId: string, name: string): Promise<CreatedApiKey> {
  const key = apiKeyPrefix + generateRandomString(cryptoRandom, base62, randomLength)
  return db.transaction().execute(async (trx) => {
    await lockUser(trx, userId)
    const { live } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('live'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow()
    if (Number(live) >= apiKeyBounds.perUser) {
      throw new RelayError('api_key_limit', `at most ${apiKeyBounds.perUser} API keys per user`, { limit: apiKeyBounds.perUser })
    }
    const now = clock.now()
    const row = {
      id: newId(),
      user_id: userId,
      name,
      key_hash: hashKey(key),
      last4: key.slice(-4),
      create_timestamp: now,
      last_used_timestamp: null,
      deleted_at: null,
      disabled_timestamp: null,
      expires_timestamp: null,
      points_quota: null,
      daily_points_quota: null,
      allowed_models: null,
      rpm_limit: null,
      concurrency_limit: null,
      allowed_ips: null,
      points_used: 0,
      day_points_used: 0,
      points_day: 0,
    }
    await trx.insertInto('api_keys').values(row).execute()
    return { ...toApiKey(row, now), key }
  })
}

/** Deletes one of the caller's keys; another user's key, or one already deleted, is a 404. */
export async function deleteApiKey(db: Database, clock: Clock, userId: string, keyId: string): Promise<void> {
  forgetApiKey(keyId)
  const result = await db
    .updateTable('api_keys')
    .set({ deleted_at: clock.now() })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new RelayError('not_found', 'API key not found')
}

export interface ApiKeyIdentity {
  keyId: string
  userId: string
  /** The owner's controls of the key, for the call to keep (keys/limits.ts). */
  controls: KeyControls
}

/**
 * The key's owner, or null for a malformed, unknown or deleted key or a disabled user; a key its
 * owner disabled or let expire is refused (RelayError `api_key_disabled`, `api_key_expired`). The
 * lookup is by digest, so its timing can reveal nothing about the key itself; the digests are
 * then compared in constant time as well.
 *
 * `cached` (a metered call, which confirms the key when it freezes): on PostgreSQL the key may
 * come from `cachedKeys`, its controls then `confirmed: false`.
 */
export async function authenticateApiKey(db: Database, rawKey: string, clock: Clock, { cached = false } = {}): Promise<ApiKeyIdentity | null> {
  if (!apiKeyPattern.test(rawKey)) return null
  const digest = hashKey(rawKey)
  const now = clock.now()
  const cache = cached && isPostgres(db)
  const entry = cache ? cachedKeys.get(digest) : undefined
  const confirmed = !(entry && entry.until > now)
  let row: LiveKeyRow
  if (!confirmed) row = entry!.row
  else {
    const [read] = (await liveKeyByHash(db, { digest })).rows
    if (!read || !timingSafeEqual(Buffer.from(read.key_hash), Buffer.from(digest))) return null
    row = read
  }
  // Expiry is checked against the clock whether the row was read now or a moment ago.
  const controls = ownedRefusal(() => keyControls(row, now, confirmed), { userId: row.user_id, keyId: row.id, clientId: null })
  // Only a key that may call is kept: one enabled again elsewhere is not refused from here.
  if (cache && confirmed) {
    if (cachedKeys.size >= maxCachedKeys) cachedKeys.clear()
    cachedKeys.set(digest, { row, until: now + keyCacheMs })
  }
  if (row.last_used_timestamp === null || now - row.last_used_timestamp >= lastUsedResolutionMs) {
    // Guarded, so parallel requests of one key (or several relay instances) write it once.
    await db
      .updateTable('api_keys')
      .set({ last_used_timestamp: now })
      .where('id', '=', row.id)
      .where((eb) =>
        eb.or([eb('last_used_timestamp', 'is', null), eb('last_used_timestamp', '<=', now - lastUsedResolutionMs)]),
      )
      .execute()
    row.last_used_timestamp = now
  }
  return { keyId: row.id, userId: row.user_id, controls }
}

/** `read`, whose RelayError names the caller it refuses (KnownCallerRefusal). */
export function ownedRefusal<T>(read: () => T, caller: KnownCallerRefusal['caller']): T {
  try {
    return read()
  } catch (error) {
    throw error instanceof RelayError ? new KnownCallerRefusal(error, caller) : error
  }
}

/**
 * A key read from `cachedKeys` whose call freezes nothing (a free model) is confirmed here, one
 * read by id; refuses as `authenticateApiKey` does. Keys read from the database just now pass.
 */
export async function confirmApiKey(db: Database, key: KeyControls, clock: Clock): Promise<void> {
  if (key.confirmed) return
  const [row] = (await liveKeyById(db, { id: key.keyId })).rows
  if (!row) {
    forgetApiKey(key.keyId)
    throw new RelayError('unauthenticated', 'unknown or deleted API key')
  }
  keyControls(row, clock.now())
}

/**
 * On PostgreSQL, where each read is a round trip on the call's path: the keys of this process's
 * metered calls of the last `keyCacheMs`, by digest (docs/decisions/108-money-rules-on-postgres.md). Whether the key is still
 * live is not taken from here: the call's freeze confirms it in the same statement
 * (points/ledger.ts `liveKey`, migration 0042), a free call with `confirmApiKey`, so a key deleted
 * or disabled, or a user disabled, from any process stops at its next call as before. What may be
 * up to `keyCacheMs` old is the rest of the key's controls (allowed models, quotas, requests per
 * minute, calls at once) when changed through another process; a change through this one forgets
 * the key at once.
 */
const keyCacheMs = 5_000
const maxCachedKeys = 10_000
const cachedKeys = new Map<string, { row: LiveKeyRow; until: number }>()

/** Drops the key from this process's cache: its controls changed, or it was found no longer live. */
export function forgetApiKey(keyId: string): void {
  for (const [digest, { row }] of cachedKeys) if (row.id === keyId) cachedKeys.delete(digest)
}

const liveKeyColumns = [
  'api_keys.id',
  'api_keys.user_id',
  'api_keys.key_hash',
  'api_keys.last_used_timestamp',
  'api_keys.disabled_timestamp',
  'api_keys.expires_timestamp',
  'api_keys.points_quota',
  'api_keys.daily_points_quota',
  'api_keys.allowed_models',
  'api_keys.rpm_limit',
  'api_keys.concurrency_limit',
  'api_keys.allowed_ips',
] as const

/** Keys not deleted whose user is active: found by their hash, or confirmed by their id. */
const liveKeys = (db: Database) =>
  db.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id').select(liveKeyColumns).where('api_keys.deleted_at', 'is', null).where('users.status', '=', 'active')
// Prepared (db/prepared.ts): every relayed call starts here.
const liveKeyByHash = prepared((db, args: { digest: string }) => liveKeys(db).where('api_keys.key_hash', '=', args.digest))
const liveKeyById = prepared((db, args: { id: string }) => liveKeys(db).where('api_keys.id', '=', args.id))

type LiveKeyRow = Awaited<ReturnType<typeof liveKeyByHash>>['rows'][number]
