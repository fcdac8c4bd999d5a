/**
 * Two-factor sign-in (docs/decisions/099-sign-in.md): enrolment, the second step of a sign-in, recovery
 * codes, and the short-lived challenge that carries a sign-in from its password step to its code
 * step without a session.
 *
 * - Enrolment keeps a sealed key (totp.ts) with `enabled_at` null; the key is shown only until a
 *   first code confirms it, which also hands out ten recovery codes, shown once.
 * - A TOTP code is taken by moving `last_step` forward in one conditional update: of two uses of
 *   one code (a replay, or the same code sent twice at once) only one can move it.
 * - A recovery code is spent by setting its `used_at` in one conditional update: of parallel
 *   sign-ins with the same code exactly one succeeds.
 */
import { randomInt } from 'node:crypto'
import { SignJWT, jwtVerify } from 'jose'
import { recoveryCodeCount } from '../contract/security.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { digest } from '../oauth/secrets.ts'
import type { UserRow } from '../users/users.ts'
import { newTotpSecret, openSecret, otpauthUri, sealSecret, stepOfCode } from './totp.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

/** Crockford's base 32 in lower case: no i, l, o, u to misread. 10 symbols: 50 bits. */
const recoveryAlphabet = '0123456789abcdefghjkmnpqrstvwxyz'
/** How long the code step of a sign-in may follow its password step. */
export const challengeTtlSeconds = 300

export interface Enrolment {
  secret: string
  otpauth_uri: string
}

/** Whether `userId` signs in with a second factor. */
export async function twoFactorEnabled(db: Database, userId: string): Promise<boolean> {
  const row = await db.selectFrom('two_factor').select('enabled_at').where('user_id', '=', userId).executeTakeFirst()
  return row?.enabled_at != null
}

/** A new key to enrol with, replacing one not yet confirmed; 409 `two_factor_enabled` when enabled. */
export async function startEnrolment({ db, clock, config }: Services, user: UserRow): Promise<Enrolment> {
  const secret = newTotpSecret()
  const row = { secret: sealSecret(config, secret), enabled_at: null, last_step: null, create_timestamp: clock.now() }
  // Only a row still enrolling is replaced: an enabled one stays as it is.
  const result = await db
    .insertInto('two_factor')
    .values({ user_id: user.id, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row).where('two_factor.enabled_at', 'is', null))
    .executeTakeFirst()
  if (result.numInsertedOrUpdatedRows === 0n) throw new RelayError('two_factor_enabled')
  return { secret, otpauth_uri: otpauthUri(config, secret, user.username) }
}

/** The key being enrolled, while it is not confirmed; null otherwise. Never the key of an enabled factor. */
export async function pendingEnrolment({ db, config }: Services, user: UserRow): Promise<Enrolment | null> {
  const row = await db.selectFrom('two_factor').select(['secret', 'enabled_at']).where('user_id', '=', user.id).executeTakeFirst()
  if (!row || row.enabled_at !== null) return null
  const secret = openSecret(config, row.secret)
  return secret ? { secret, otpauth_uri: otpauthUri(config, secret, user.username) } : null
}

/** Confirms the enrolment with a first code and returns the recovery codes (in clear, this once). */
export async function confirmEnrolment(services: Services, user: UserRow, code: string): Promise<string[]> {
  const { db, clock, config } = services
  const now = clock.now()
  const row = await db.selectFrom('two_factor').select(['secret', 'enabled_at']).where('user_id', '=', user.id).executeTakeFirst()
  if (!row) throw new RelayError('two_factor_not_enabled')
  if (row.enabled_at !== null) throw new RelayError('two_factor_enabled')
  const secret = openSecret(config, row.secret)
  const step = secret === null ? null : stepOfCode(secret, code, now)
  if (step === null) throw new RelayError('two_factor_invalid')
  return db.transaction().execute(async (trx) => {
    const enabled = await trx
      .updateTable('two_factor')
      .set({ enabled_at: now, last_step: step })
      .where('user_id', '=', user.id)
      .where('enabled_at', 'is', null)
      .where('secret', '=', row.secret)
      .executeTakeFirst()
    if (enabled.numUpdatedRows !== 1n) throw new RelayError('two_factor_enabled')
    return replaceRecoveryCodes(trx, user.id)
  })
}

/**
 * Ten new recovery codes in place of the old ones, which stop working at once; the factor stays
 * on. Returned in clear, this once.
 */
export async function regenerateRecoveryCodes(db: Database, userId: string): Promise<string[]> {
  return db.transaction().execute((trx) => replaceRecoveryCodes(trx, userId))
}

/** Turns the second factor off: the key and the recovery codes are deleted. */
export async function removeTwoFactor(db: Database, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute()
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute()
  })
}

/**
 * Whether `code` — six digits from the app, or a recovery code — is a second factor of `userId`
 * now, spending it: a TOTP step or a recovery code is accepted once.
 */
export async function spendSecondFactor({ db, clock, config }: Services, userId: string, code: string): Promise<'code' | 'recovery_code' | null> {
  const typed = code.replace(/[\s-]/g, '')
  if (/^\d{6}$/.test(typed)) {
    const row = await db.selectFrom('two_factor').select(['secret', 'enabled_at']).where('user_id', '=', userId).executeTakeFirst()
    const secret = row?.enabled_at != null ? openSecret(config, row.secret) : null
    const step = secret === null ? null : stepOfCode(secret, typed, clock.now())
    if (step === null) return null
    const taken = await db
      .updateTable('two_factor')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('enabled_at', 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst()
    return taken.numUpdatedRows === 1n ? 'code' : null
  }
  const spent = await db
    .updateTable('recovery_codes')
    .set({ used_at: clock.now() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', digest(normaliseRecoveryCode(typed)))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return spent.numUpdatedRows === 1n ? 'recovery_code' : null
}

/** Recovery codes not used yet. */
export async function recoveryCodesLeft(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('left'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.left)
}

/** Lower case, the look-alikes read as Crockford reads them. */
function normaliseRecoveryCode(typed: string): string {
  return typed.toLowerCase().replace(/o/g, '0').replace(/[il]/g, '1')
}

async function replaceRecoveryCodes(db: Database, userId: string): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, () => {
    const raw = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join('')
    return `${raw.slice(0, 5)}-${raw.slice(5)}`
  })
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute()
  await db
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ id: newId(), user_id: userId, code_hash: digest(code.replace('-', '')), used_at: null })))
    .execute()
  return codes
}

const encoder = new TextEncoder()
/** Its own audience: a challenge is never an access token, nor the reverse. */
const challengeAudience = (config: Services['config']) => `${config.publicUrl}#two-factor`

/**
 * What the password step hands back when a code must follow (docs/decisions/099-sign-in.md): a signed,
 * five-minute statement "this user gave the right password", bound to the user's token version
 * (a password change since voids it). No session exists until the code step.
 */
export async function signChallenge({ config, clock }: Services, user: UserRow, device: string | undefined): Promise<string> {
  const issuedAt = Math.floor(clock.now() / 1000)
  // `dev`: the password step came from a trusted device (device-tokens.ts), whose allowance the code step uses too.
  return new SignJWT({ ver: user.token_version, ...(device ? { dev: device } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(config.publicUrl)
    .setAudience(challengeAudience(config))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + challengeTtlSeconds)
    .sign(encoder.encode(config.jwtSecrets[0]))
}

/** The user id and token version a challenge speaks for; 401 `two_factor_challenge_invalid` when it is not one or ended. */
export async function readChallenge({ config, clock }: Services, challenge: string): Promise<{ userId: string; version: number; device: string | undefined }> {
  for (const secret of config.jwtSecrets) {
    try {
      const { payload } = await jwtVerify(challenge, encoder.encode(secret), {
        algorithms: ['HS256'],
        issuer: config.publicUrl,
        audience: challengeAudience(config),
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(clock.now()),
      })
      if (typeof payload.sub === 'string' && typeof payload.ver === 'number') {
        return { userId: payload.sub, version: payload.ver, device: typeof payload.dev === 'string' ? payload.dev : undefined }
      }
      break
    } catch {
      // Another secret (rotation), or not a challenge at all: refused below.
    }
  }
  throw new RelayError('two_factor_challenge_invalid')
}
