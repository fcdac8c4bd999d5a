/**
 * The device flow of RFC 8628 (docs/architecture.md §6). A CLI asks for a device authorisation and shows the
 * person an 8-character code from an unambiguous 32-symbol alphabet (Crockford's: digits and
 * capitals without I, L, O, U; 40 bits) as XXXX-XXXX. The person signs in to the portal, types
 * it, sees which client asks for what, and approves or denies. Meanwhile the client polls the
 * token call with a separate 256-bit secret, never with the code, and gets
 * `authorization_pending`, `slow_down`, `access_denied`, `expired_token` or, exactly once,
 * the tokens. Every state change is a guarded update, so parallel requests cannot both win.
 */
import { generateRandomString, type RandomReader } from '@oslojs/crypto/random'
import { sql } from 'kysely'
import {
  deviceCodeLength,
  normaliseDeviceCode,
  oauthScreens,
  type DeviceAuthorization,
  type DeviceCodeCheck,
  type OAuthTokens,
} from '../contract/oauth.ts'
import { newId } from '../db/ids.ts'
import { isUniqueViolation } from '../db/open-database.ts'
import type { AuthUser } from '../http/authenticate.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { findClient, requestedScopes, type OAuthClient } from './clients.ts'
import { everyone, oauthLimits } from './rate-limits.ts'
import { digest, randomSecret, spentCodeRetentionMs } from './secrets.ts'
import { grantingUser, issueClientTokens } from './tokens.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config' | 'limiter'>

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** Read the way Crockford's base 32 reads them: a person may type O for 0 and I or L for 1. */
const lookAlikes: Record<string, string> = { O: '0', I: '1', L: '1' }
export const deviceCodeTtlSeconds = 600
export const pollIntervalSeconds = 5
/** RFC 8628 §3.5 adds 5 s per slow_down; capped so a burst of polls cannot lock a client out. */
const maxPollIntervalSeconds = 60

const cryptoRandom: RandomReader = { read: (bytes) => crypto.getRandomValues(bytes) }

/** `XXXX-XXXX` in our alphabet, or null when what was typed cannot be one of our codes. */
export function canonicalDeviceCode(typed: string): string | null {
  const code = normaliseDeviceCode(typed)?.replace(/[OIL]/g, (ch) => lookAlikes[ch] ?? ch)
  return code && [...code.replace('-', '')].every((ch) => alphabet.includes(ch)) ? code : null
}

/** `GET device-code`: a new device authorisation for the client. */
export async function startDeviceAuthorization(
  services: Services,
  clientId: string,
  scope: string | undefined,
  clientIp: string,
): Promise<DeviceAuthorization> {
  const { db, clock, config } = services
  const client = await findClient(db, clientId)
  const scopes = requestedScopes(scope)
  const now = clock.now()
  await db.deleteFrom('oauth_device_codes').where('expires_at', '<', now - spentCodeRetentionMs).execute()
  const secret = randomSecret('rds_')
  // 40 random bits rarely meet a live code; when they do, the unique index says so: draw again.
  for (let attempt = 1; ; attempt++) {
    const raw = generateRandomString(cryptoRandom, alphabet, deviceCodeLength)
    const code = `${raw.slice(0, 4)}-${raw.slice(4)}`
    try {
      await db
        .insertInto('oauth_device_codes')
        .values({
          id: newId(),
          user_code_hash: digest(code),
          secret_hash: digest(secret),
          client_id: client.clientId,
          scope: scopes.join(' '),
          status: 'pending',
          user_id: null,
          interval_seconds: pollIntervalSeconds,
          last_polled_at: null,
          created_at: now,
          expires_at: now + deviceCodeTtlSeconds * 1000,
          decided_at: null,
          client_ip: clientIp,
        })
        .execute()
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 5) continue
      throw error
    }
    const verification = new URL(oauthScreens.device, config.publicUrl)
    const complete = new URL(verification)
    complete.searchParams.set('code', code)
    return {
      device_code: code,
      device_secret: secret,
      verification_uri: verification.toString(),
      verification_uri_complete: complete.toString(),
      expires_in: deviceCodeTtlSeconds,
      interval: pollIntervalSeconds,
    }
  }
}

/**
 * The pending authorisation behind a typed code. Counts against the guessing limits first,
 * whatever the outcome, so a limit reached also stops a lucky guess.
 */
async function pendingCode(services: Services, user: AuthUser, typed: string) {
  const { db, clock, limiter } = services
  await limiter.enforce(oauthLimits.deviceLookupPerUser, user.id)
  await limiter.enforce(oauthLimits.deviceLookupGlobal, everyone)
  const code = canonicalDeviceCode(typed)
  if (!code) throw new RelayError('device_code_invalid')
  const row = await db
    .selectFrom('oauth_device_codes')
    .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_device_codes.client_id')
    .select(['oauth_device_codes.id', 'oauth_device_codes.client_id', 'oauth_device_codes.scope', 'oauth_device_codes.status'])
    .select(['oauth_device_codes.expires_at', 'oauth_device_codes.created_at', 'oauth_device_codes.client_ip', 'oauth_clients.name as client_name'])
    .where('user_code_hash', '=', digest(code))
    .executeTakeFirst()
  // A code already decided reads as invalid: it is single-use.
  if (!row || row.status !== 'pending') throw new RelayError('device_code_invalid')
  if (row.expires_at <= clock.now()) throw new RelayError('device_code_expired')
  return { ...row, code }
}

/** `verify-code`: which client asks, and for what. */
export async function checkDeviceCode(services: Services, user: AuthUser, typed: string): Promise<DeviceCodeCheck> {
  const row = await pendingCode(services, user, typed)
  return {
    device_code: row.code,
    client_id: row.client_id,
    client_name: row.client_name,
    scopes: requestedScopes(row.scope),
    expires_timestamp: row.expires_at,
    requested_timestamp: row.created_at,
    requested_from: row.client_ip,
    grant_days: services.config.sessionLifetimeDays,
  }
}

/** `authorize` with a device code: the user's decision, taken once. */
export async function decideDeviceCode(
  services: Services,
  user: AuthUser,
  typed: string,
  decision: 'approve' | 'deny',
): Promise<void> {
  const row = await pendingCode(services, user, typed)
  const now = services.clock.now()
  const decided = await services.db
    .updateTable('oauth_device_codes')
    .set({ status: decision === 'approve' ? 'approved' : 'denied', user_id: user.id, decided_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst()
  if (decided.numUpdatedRows !== 1n) throw new RelayError('device_code_invalid')
}

/** `grant_type=device_code`: what the client's poll gets (see the module comment). */
export async function pollDeviceCode(services: Services, client: OAuthClient, deviceSecret: string): Promise<OAuthTokens> {
  const { db, clock } = services
  const now = clock.now()
  const row = await db
    .selectFrom('oauth_device_codes')
    .selectAll()
    .where('secret_hash', '=', digest(deviceSecret))
    .where('client_id', '=', client.clientId)
    .executeTakeFirst()
  if (!row || row.status === 'issued') throw new RelayError('invalid_grant')
  if (row.expires_at <= now) throw new RelayError('expired_token')

  // One poll per interval passes this gate; the database decides, so parallel polls cannot both pass.
  const passed = await db
    .updateTable('oauth_device_codes')
    .set({ last_polled_at: now })
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('last_polled_at', 'is', null), eb(sql<number>`last_polled_at + interval_seconds * 1000`, '<=', now)]))
    .executeTakeFirst()
  if (passed.numUpdatedRows !== 1n) {
    const slowed = await db
      .updateTable('oauth_device_codes')
      .set({ interval_seconds: sql<number>`case when interval_seconds + 5 > ${maxPollIntervalSeconds} then ${maxPollIntervalSeconds} else interval_seconds + 5 end` })
      .where('id', '=', row.id)
      .returning('interval_seconds')
      .executeTakeFirstOrThrow()
    throw new RelayError('slow_down', undefined, { interval: slowed.interval_seconds })
  }

  if (row.status === 'pending') throw new RelayError('authorization_pending')
  if (row.status === 'denied') throw new RelayError('access_denied')
  const issued = await db
    .updateTable('oauth_device_codes')
    .set({ status: 'issued' })
    .where('id', '=', row.id)
    .where('status', '=', 'approved')
    .executeTakeFirst()
  if (issued.numUpdatedRows !== 1n || row.user_id === null) throw new RelayError('invalid_grant')
  const user = await grantingUser(services, row.user_id)
  if (!user) throw new RelayError('access_denied')
  return issueClientTokens(services, user, client.clientId, requestedScopes(row.scope), row.id)
}
