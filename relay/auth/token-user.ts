/**
 * The user an access token still speaks for, in one query: the user exists and is active, the
 * token's `ver` is the user's token version (no password change since), and its session — the
 * refresh-token family of a portal sign-in or of a client's grant — has not been ended by
 * sign-out, revocation or theft detection (docs/decisions/003-sessions.md). An access token therefore stops
 * working the moment its session ends, not when it expires.
 */
import type { Database } from '../db/open-database.ts'
import type { UserRow } from '../users/users.ts'
import type { AccessClaims } from './access-tokens.ts'

export async function userOfAccessToken(db: Database, claims: AccessClaims): Promise<UserRow | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      (claims.clientId === null
        ? eb.exists(eb.selectFrom('refresh_tokens').select('id').where('family_id', '=', claims.sessionId).where('revoked_at', 'is', null))
        : eb.exists(
            eb
              .selectFrom('oauth_refresh_tokens')
              .select('id')
              .where('family_id', '=', claims.sessionId)
              .where('client_id', '=', claims.clientId)
              .where('revoked_at', 'is', null),
          )
      ).as('session_open'),
    )
    .where('id', '=', claims.userId)
    .executeTakeFirst()
  if (!row) return undefined
  const { session_open: open, ...user } = row
  // SQLite answers EXISTS with 1 or 0, PostgreSQL with true or false.
  if (!open || user.status !== 'active' || user.token_version !== claims.version) return undefined
  return user
}
