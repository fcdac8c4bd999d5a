/**
 * Opaque refresh tokens (docs/architecture.md §5, docs/decisions/011). Only a SHA-256 of each is stored. A
 * token is rotated on use; the rotated token keeps working for a short grace window
 * (REFRESH_REUSE_GRACE) and then yields another fresh successor, so two tabs or two parallel
 * requests refreshing at once both stay signed in. A rotated token presented after the grace
 * window is treated as stolen: its whole family (every token descended from one login) dies.
 */
import { createHash, randomBytes } from 'node:crypto'
import { newId } from '../db/ids.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** A new token for `userId`, in `familyId` or, for a new login, a family of its own. */
export async function issueRefreshToken({ db, clock, config }: Services, userId: string, familyId?: string): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const id = newId()
  const now = clock.now()
  await db
    .insertInto('refresh_tokens')
    .values({
      id,
      user_id: userId,
      family_id: familyId ?? id,
      token_hash: hashRefreshToken(token),
      created_at: now,
      expires_at: now + config.refreshTokenTtlSeconds * 1000,
      rotated_at: null,
      revoked_at: null,
    })
    .execute()
  return token
}

/** Exchanges `token` for a successor; returns its owner and the new token, or throws 401 `refresh_invalid`. */
export async function rotateRefreshToken(services: Services, token: string): Promise<{ userId: string; refreshToken: string }> {
  const { db, clock, config } = services
  const now = clock.now()
  const row = await db
    .selectFrom('refresh_tokens')
    .select(['id', 'user_id', 'family_id', 'expires_at', 'rotated_at', 'revoked_at'])
    .where('token_hash', '=', hashRefreshToken(token))
    .executeTakeFirst()
  if (!row || row.revoked_at !== null || row.expires_at <= now) throw new RelayError('refresh_invalid')

  // Whoever flips rotated_at first performs the rotation; a parallel request takes the grace path.
  const firstUse = row.rotated_at === null && (await claimRotation(services, row.id, now))
  if (!firstUse) {
    const rotatedAt = row.rotated_at ?? now
    if (now - rotatedAt > config.refreshReuseGraceSeconds * 1000) {
      await revokeFamily(services, row.family_id)
      throw new RelayError('refresh_invalid')
    }
  }
  return { userId: row.user_id, refreshToken: await issueRefreshToken(services, row.user_id, row.family_id) }
}

/** Logout: the token and every token of its family stop working. Unknown tokens are ignored. */
export async function revokeRefreshToken(services: Services, token: string): Promise<void> {
  const row = await services.db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', hashRefreshToken(token))
    .executeTakeFirst()
  if (row) await revokeFamily(services, row.family_id)
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

async function claimRotation({ db }: Services, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: now })
    .where('id', '=', id)
    .where('rotated_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

async function revokeFamily({ db, clock }: Services, familyId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: clock.now() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute()
}
