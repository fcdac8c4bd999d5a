/**
 * API keys: minted with a recognisable prefix, stored as a SHA-256 digest, shown in full once
 * (docs/decisions/050). `authenticateApiKey` is the metered proxy's hot path: one indexed read,
 * and a write at most once a minute per key to keep "last used" fresh.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { generateRandomString, type RandomReader } from '@oslojs/crypto/random'
import type { Selectable } from 'kysely'
import type { Clock } from '../clock.ts'
import { apiKeyBounds, apiKeyPattern, apiKeyPrefix, type ApiKey, type ApiKeyLimits, type ApiKeyUse, type CreatedApiKey } from '../contract/api-keys.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { ApiKeysTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { lockUser } from '../points/locks.ts'
import { dayOf, keyControls, keysUse, limitColumns, limitsOf, type KeyControls } from './limits.ts'

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

/** `staleHoldMinutes`: a call in flight longer than that no longer counts against its key (keys/limits.ts). */
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
  const row = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('api_keys')
      .select('disabled_timestamp')
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    if (!current) throw new RelayError('not_found', 'API key not found')
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
 */
export async function authenticateApiKey(db: Database, rawKey: string, clock: Clock): Promise<ApiKeyIdentity | null> {
  if (!apiKeyPattern.test(rawKey)) return null
  const digest = hashKey(rawKey)
  const [row] = (await liveKeyByHash(db, { digest })).rows
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(digest))) return null
  const now = clock.now()
  const controls = keyControls(row, now)
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
  }
  return { keyId: row.id, userId: row.user_id, controls }
}

// Prepared (db/prepared.ts): every relayed call starts here.
const liveKeyByHash = prepared((db, args: { digest: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
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
    ])
    .where('api_keys.key_hash', '=', args.digest)
    .where('api_keys.deleted_at', 'is', null)
    .where('users.status', '=', 'active'),
)
