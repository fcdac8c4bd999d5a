/**
 * API keys: minted with a recognisable prefix, stored as a SHA-256 digest, shown in full once
 * (docs/decisions/050). `authenticateApiKey` is the metered proxy's hot path: one indexed read,
 * and a write at most once a minute per key to keep "last used" fresh.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { generateRandomString, type RandomReader } from '@oslojs/crypto/random'
import type { Selectable } from 'kysely'
import type { Clock } from '../clock.ts'
import { apiKeyBounds, apiKeyPattern, apiKeyPrefix, type ApiKey, type CreatedApiKey } from '../contract/api-keys.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { ApiKeysTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { lockUser } from '../points/locks.ts'

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

function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    name: row.name,
    masked_key: maskKey(row.last4),
    create_timestamp: row.create_timestamp,
    last_used_timestamp: row.last_used_timestamp,
  }
}

export async function listApiKeys(db: Database, userId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .execute()
  return rows.map(toApiKey)
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
    const row = {
      id: newId(),
      user_id: userId,
      name,
      key_hash: hashKey(key),
      last4: key.slice(-4),
      create_timestamp: clock.now(),
      last_used_timestamp: null,
      deleted_at: null,
    }
    await trx.insertInto('api_keys').values(row).execute()
    return { ...toApiKey(row), key }
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
}

/**
 * The key's owner, or null for a malformed, unknown or deleted key or a disabled user. The
 * lookup is by digest, so its timing can reveal nothing about the key itself; the digests are
 * then compared in constant time as well.
 */
export async function authenticateApiKey(db: Database, rawKey: string, clock: Clock): Promise<ApiKeyIdentity | null> {
  if (!apiKeyPattern.test(rawKey)) return null
  const digest = hashKey(rawKey)
  const [row] = (await liveKeyByHash(db, { digest })).rows
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(digest))) return null
  const now = clock.now()
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
  return { keyId: row.id, userId: row.user_id }
}

// Prepared (db/prepared.ts): every relayed call starts here.
const liveKeyByHash = prepared((db, args: { digest: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id', 'api_keys.user_id', 'api_keys.key_hash', 'api_keys.last_used_timestamp'])
    .where('api_keys.key_hash', '=', args.digest)
    .where('api_keys.deleted_at', 'is', null)
    .where('users.status', '=', 'active'),
)
