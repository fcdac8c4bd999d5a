/**
 * What a client holds once a user said yes: a short-lived access token (the relay's own JWT,
 * relay/auth/access-tokens.ts, carrying `client_id` and the granted `scope`) and a refresh
 * token. Refresh tokens rotate on every use; one presented again after its rotation is taken as
 * stolen and ends its whole grant (a family: every token descended from one code or device
 * approval). A password change ends every grant of the user (`token_version`).
 */
import type { OAuthScope } from '../contract/oauth-scopes.ts'
import type { OAuthTokens, TokenIntrospection } from '../contract/oauth.ts'
import { signAccessToken, verifyAccessToken } from '../auth/access-tokens.ts'
import { claimRotation, endFamily, familyEnd, tokenEnd } from '../auth/token-families.ts'
import { userOfAccessToken } from '../auth/token-user.ts'
import { newId } from '../db/ids.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { findUserById, type UserRow } from '../users/users.ts'
import { requestedScopes, type OAuthClient } from './clients.ts'
import { digest, randomSecret } from './secrets.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

/**
 * Issues a token pair for `scopes` granted by `user` to `clientId`, in grant `familyId`; the
 * grant ends at `grantExpiresAt` however often it is refreshed (new grants: SESSION_LIFETIME_DAYS
 * from now).
 */
export async function issueClientTokens(
  services: Services,
  user: UserRow,
  clientId: string,
  scopes: readonly OAuthScope[],
  familyId: string,
  grantExpiresAt = familyEnd(services.config, services.clock.now()),
): Promise<OAuthTokens> {
  const { db, clock, config } = services
  const refreshToken = randomSecret('rrt_')
  const now = clock.now()
  const scope = scopes.join(' ')
  const expiresAt = tokenEnd(config, now, grantExpiresAt)
  await db
    .insertInto('oauth_refresh_tokens')
    .values({
      id: newId(),
      family_id: familyId,
      client_id: clientId,
      user_id: user.id,
      scope,
      token_version: user.token_version,
      token_hash: digest(refreshToken),
      created_at: now,
      expires_at: expiresAt,
      rotated_at: null,
      revoked_at: null,
      session_expires_at: grantExpiresAt,
    })
    .execute()
  return {
    access_token: await signAccessToken(config, clock, user, familyId, { clientId, scopes }),
    token_type: 'Bearer',
    expires_in: config.accessTokenTtlSeconds,
    refresh_token: refreshToken,
    refresh_expires_in: Math.floor((expiresAt - now) / 1000),
    scope,
  }
}

/** The user behind a grant, if they may still use it: active, password unchanged since. */
export async function grantingUser(services: Services, userId: string, tokenVersion?: number): Promise<UserRow | null> {
  const user = await findUserById(services.db, userId)
  if (!user || user.status !== 'active') return null
  if (tokenVersion !== undefined && user.token_version !== tokenVersion) return null
  return user
}

/** `grant_type=refresh_token`: a successor pair with the same scopes, or 400 `invalid_grant`. */
export async function refreshClientTokens(services: Services, client: OAuthClient, refreshToken: string): Promise<OAuthTokens> {
  const { db, clock } = services
  const now = clock.now()
  const row = await db
    .selectFrom('oauth_refresh_tokens')
    .selectAll()
    .where('token_hash', '=', digest(refreshToken))
    .executeTakeFirst()
  if (!row || row.client_id !== client.clientId || row.revoked_at !== null || row.expires_at <= now) {
    throw new RelayError('invalid_grant')
  }
  if (row.rotated_at !== null) {
    await revokeGrant(services, row.family_id)
    throw new RelayError('invalid_grant')
  }
  // Whoever marks the token rotated first gets the successor; a parallel use gets invalid_grant.
  if (!(await claimRotation(services, 'oauth_refresh_tokens', row.id, now))) throw new RelayError('invalid_grant')
  const user = await grantingUser(services, row.user_id, row.token_version)
  if (!user) throw new RelayError('invalid_grant')
  return issueClientTokens(services, user, client.clientId, requestedScopes(row.scope), row.family_id, row.session_expires_at ?? undefined)
}

/** Ends every refresh token of one grant. */
export async function revokeGrant(services: Services, familyId: string): Promise<void> {
  await endFamily(services, 'oauth_refresh_tokens', familyId)
}

/** The user revokes one of their grants (the security page); false when it is not theirs or already ended. */
export function revokeUserGrant(services: Services, userId: string, familyId: string): Promise<boolean> {
  return endFamily(services, 'oauth_refresh_tokens', familyId, userId)
}

/**
 * RFC 7662 for access tokens: active only when the token verifies, was issued to the asking
 * client, and still speaks for its user (active, same password as then, grant not revoked). A client learns nothing about
 * tokens of other clients or of portal sessions: those are simply inactive.
 */
export async function introspectToken(services: Services, client: OAuthClient, token: string): Promise<TokenIntrospection> {
  const claims = await verifyAccessToken(services.config, services.clock, token).catch((error: unknown) => {
    if (error instanceof RelayError) return null
    throw error
  })
  if (!claims?.scopes || claims.clientId !== client.clientId) return { active: false }
  const user = await userOfAccessToken(services.db, claims)
  if (!user) return { active: false }
  return {
    active: true,
    sub: user.id,
    username: user.username,
    client_id: client.clientId,
    scope: claims.scopes.join(' '),
    exp: claims.expiresAt,
  }
}
