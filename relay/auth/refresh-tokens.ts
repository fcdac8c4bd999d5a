/**
 * Opaque refresh tokens (docs/architecture.md §5, docs/decisions/011-tokens-and-scopes.md). Only a SHA-256 of each is stored. A
 * token is rotated on use; the rotated token keeps working for a short grace window
 * (REFRESH_REUSE_GRACE) and then yields another fresh successor, so two tabs or two parallel
 * requests refreshing at once both stay signed in. A rotated token presented after the grace
 * window, or after its successor was itself rotated, is treated as stolen: its whole family
 * (every token descended from one login: the session) dies. No rotation outlives the session's
 * absolute end, SESSION_LIFETIME_DAYS after the sign-in (docs/decisions/003-sessions.md).
 */
import { createHash, randomBytes } from 'node:crypto'
import { newId } from '../db/ids.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { claimRotation, endFamily, familyEnd, tokenEnd } from './token-families.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** A refresh token and the session (family) it belongs to. */
export interface IssuedRefreshToken {
  token: string
  sessionId: string
  /** Epoch ms: the token's own end, never past the session's. */
  expiresAt: number
}

/** The session a successor token continues: its family and absolute end. */
interface SessionOf {
  familyId: string
  expiresAt: number
}

/** A new token for `userId`: in an existing session, or the first of a new one (a sign-in). */
export async function issueRefreshToken({ db, clock, config }: Services, userId: string, session?: SessionOf): Promise<IssuedRefreshToken> {
  const token = randomBytes(32).toString('base64url')
  const id = newId()
  const now = clock.now()
  const sessionExpiresAt = session?.expiresAt ?? familyEnd(config, now)
  const familyId = session?.familyId ?? id
  const expiresAt = tokenEnd(config, now, sessionExpiresAt)
  await db
    .insertInto('refresh_tokens')
    .values({
      id,
      user_id: userId,
      family_id: familyId,
      token_hash: hashRefreshToken(token),
      created_at: now,
      expires_at: expiresAt,
      rotated_at: null,
      revoked_at: null,
      session_expires_at: sessionExpiresAt,
    })
    .execute()
  return { token, sessionId: familyId, expiresAt }
}

/** Exchanges `token` for a successor; returns its owner and the new token, or throws 401 `refresh_invalid`. */
export async function rotateRefreshToken(services: Services, token: string): Promise<{ userId: string; refresh: IssuedRefreshToken }> {
  const { db, clock, config } = services
  const now = clock.now()
  const row = await db
    .selectFrom('refresh_tokens')
    .select(['id', 'user_id', 'family_id', 'expires_at', 'rotated_at', 'revoked_at', 'session_expires_at'])
    .where('token_hash', '=', hashRefreshToken(token))
    .executeTakeFirst()
  if (!row || row.revoked_at !== null || row.expires_at <= now) throw new RelayError('refresh_invalid')

  // Whoever flips rotated_at first performs the rotation; a parallel request takes the grace path.
  const firstUse = row.rotated_at === null && (await claimRotation(services, 'refresh_tokens', row.id, now))
  if (!firstUse) {
    const rotatedAt = row.rotated_at ?? now
    if (now - rotatedAt > config.refreshReuseGraceSeconds * 1000 || (await successorRotated(services, row.family_id, row.id, rotatedAt))) {
      await endFamily(services, 'refresh_tokens', row.family_id)
      throw new RelayError('refresh_invalid')
    }
  }
  const session = { familyId: row.family_id, expiresAt: row.session_expires_at ?? familyEnd(config, now) }
  return { userId: row.user_id, refresh: await issueRefreshToken(services, row.user_id, session) }
}

/**
 * Whether a token of the family issued since `rotatedAt` has been rotated in turn: the grace is
 * for the immediate predecessor only (two tabs refreshing at once), not for a token two
 * rotations old.
 */
async function successorRotated({ db }: Services, familyId: string, id: string, rotatedAt: number): Promise<boolean> {
  const rotated = await db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', familyId)
    .where('id', '!=', id)
    .where('created_at', '>=', rotatedAt)
    .where('rotated_at', 'is not', null)
    .executeTakeFirst()
  return rotated !== undefined
}

/** Logout: the token and every token of its family stop working. Unknown tokens are ignored. */
export async function revokeRefreshToken(services: Services, token: string): Promise<void> {
  const row = await services.db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', hashRefreshToken(token))
    .executeTakeFirst()
  if (row) await endFamily(services, 'refresh_tokens', row.family_id)
}

/** Password change or reset: every session of the user ends. */
export async function revokeAllRefreshTokens({ db, clock }: Services, userId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: clock.now() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Ends one session of `userId` (the security page); false when it is not theirs or already ended. */
export function revokeSession(services: Services, userId: string, familyId: string): Promise<boolean> {
  return endFamily(services, 'refresh_tokens', familyId, userId)
}

/** Ends every session of `userId` but `keepFamilyId`; answers how many sessions ended. */
export async function revokeOtherSessions({ db, clock }: Services, userId: string, keepFamilyId: string): Promise<number> {
  const now = clock.now()
  const open = await db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .distinct()
    .where('user_id', '=', userId)
    .where('family_id', '!=', keepFamilyId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .execute()
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('family_id', '!=', keepFamilyId)
    .where('revoked_at', 'is', null)
    .execute()
  return open.length
}
