import type { Context } from 'hono'
import type { Selectable } from 'kysely'
import { verifyAccessToken } from '../auth/access-tokens.ts'
import { userOfAccessToken } from '../auth/token-user.ts'
import { twoFactorEnabled } from '../auth/two-factor.ts'
import type { RequiredScope } from '../contract/endpoint.ts'
import type { UsersTable } from '../db/schema.ts'
import type { RelayServices } from '../services.ts'
import { RelayError } from './relay-error.ts'

export type AuthUser = Selectable<UsersTable>

/**
 * The user behind `Authorization: Bearer <access token>`. The token must verify and still speak
 * for its user (auth/token-user.ts: active, same token version, session not ended); otherwise
 * 401, so the portal logs out. A token without the `required` scope is refused with 403 `insufficient_scope`.
 */
export async function authenticate(c: Context, services: RelayServices, required: RequiredScope = 'profile'): Promise<AuthUser> {
  const claims = await bearerClaims(c, services)
  if (claims.scopes && (required === 'session' || !claims.scopes.includes(required))) {
    throw new RelayError('insufficient_scope', undefined, { required_scope: required })
  }
  const user = await userOfAccessToken(services.db, claims)
  if (!user) throw new RelayError('unauthenticated')
  if (claims.viewerId !== null) await checkViewer(c, services, claims.viewerId)
  return user
}

/**
 * An operator reading as a user (admin/view-as.ts) only reads, and only while still an active
 * admin: a demoted or disabled operator's view ends at the next call.
 */
async function checkViewer(c: Context, services: RelayServices, viewerId: string): Promise<void> {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') throw new RelayError('view_only')
  const viewer = await services.db.selectFrom('users').select(['user_type', 'status']).where('id', '=', viewerId).executeTakeFirst()
  if (viewer?.user_type !== 'admin' || viewer.status !== 'active') throw new RelayError('unauthenticated')
}

/**
 * An operator of the console (docs/decisions/115-operator-console.md): a portal login's token (an OAuth client's
 * carries scopes; an API key does not verify) of an active user of type `admin`. Anyone else
 * signed in gets 404 `not_found`, the answer to a path that does not exist, so the area reveals
 * nothing of itself; a missing or expired token still gets 401 so the portal signs out as anywhere.
 */
export async function authenticateAdmin(c: Context, services: RelayServices): Promise<AuthUser> {
  const claims = await bearerClaims(c, services)
  const user = await userOfAccessToken(services.db, claims)
  if (!user) throw new RelayError('unauthenticated')
  // Word for word what error-handlers.ts answers a path without a route.
  if (claims.scopes || claims.viewerId !== null || user.user_type !== 'admin') throw new RelayError('not_found', `no route for ${c.req.method} ${c.req.path}`)
  // REQUIRE_ADMIN_TWO_FACTOR: the console waits until the admin has enrolled (docs/decisions/071-secrets-sealed-with-jwt-secret.md).
  if (services.config.requireAdminTwoFactor && !(await twoFactorEnabled(services.db, user.id))) throw new RelayError('two_factor_required')
  return user
}

/** The session (refresh-token family) of the caller's access token, for calls that tell it from the account's others. */
export async function callerSessionId(c: Context, services: RelayServices): Promise<string> {
  return (await bearerClaims(c, services)).sessionId
}

async function bearerClaims(c: Context, services: RelayServices) {
  const header = c.req.header('authorization')
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1]
  if (!token) throw new RelayError('unauthenticated')
  return verifyAccessToken(services.config, services.clock, token)
}
