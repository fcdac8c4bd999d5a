/**
 * Refresh tokens live in families: every token descended from one sign-in (a portal session,
 * `refresh_tokens`) or one approval (a client's grant, `oauth_refresh_tokens`, relay/oauth/tokens.ts).
 * What the two share is here, once: a family's absolute end, a token's end within it, the claim
 * that makes exactly one rotation of a token win, and ending a family. How a rotated token
 * presented again is treated differs on purpose: a portal session allows a short reuse grace for
 * two tabs refreshing at once (refresh-tokens.ts), a client's grant does not
 * (docs/decisions/011-tokens-and-scopes.md).
 */
import type { RelayServices } from '../services.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

/** The tables whose rows are refresh tokens in families; both have the columns used here. */
export type TokenFamilyTable = 'refresh_tokens' | 'oauth_refresh_tokens'

/** When a family begun at `now` ends, however often it is refreshed (SESSION_LIFETIME_DAYS). */
export function familyEnd(config: Services['config'], now: number): number {
  return now + config.sessionLifetimeDays * 24 * 3600 * 1000
}

/** A token issued at `now`: its own lifetime, never past its family's end. */
export function tokenEnd(config: Services['config'], now: number, familyEndsAt: number): number {
  return Math.min(now + config.refreshTokenTtlSeconds * 1000, familyEndsAt)
}

/** Marks token `id` rotated; true for the one caller that did so first (parallel uses race here). */
export async function claimRotation({ db }: Pick<Services, 'db'>, table: TokenFamilyTable, id: string, now: number): Promise<boolean> {
  // Cast: Kysely types one table at a time, and both tables have these columns.
  const result = await db
    .updateTable(table as 'refresh_tokens')
    .set({ rotated_at: now })
    .where('id', '=', id)
    .where('rotated_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/**
 * Ends every token of family `familyId`, and so the access tokens that name it (`sid`). With
 * `userId`, only if the family is that user's (a user ending their own session or grant); answers
 * whether a token was still open.
 */
export async function endFamily({ db, clock }: Pick<Services, 'db' | 'clock'>, table: TokenFamilyTable, familyId: string, userId?: string): Promise<boolean> {
  let update = db
    .updateTable(table as 'refresh_tokens')
    .set({ revoked_at: clock.now() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
  if (userId !== undefined) update = update.where('user_id', '=', userId)
  const result = await update.executeTakeFirst()
  return result.numUpdatedRows > 0n
}
