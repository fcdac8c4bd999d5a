import type { Context } from 'hono'
import type { Selectable } from 'kysely'
import { verifyAccessToken } from '../auth/access-tokens.ts'
import { userOfAccessToken } from '../auth/token-user.ts'
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
  const header = c.req.header('authorization')
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1]
  if (!token) throw new RelayError('unauthenticated')
  const claims = await verifyAccessToken(services.config, services.clock, token)
  if (claims.scopes && (required === 'session' || !claims.scopes.includes(required))) {
    throw new RelayError('insufficient_scope', undefined, { required_scope: required })
  }
  const user = await userOfAccessToken(services.db, claims)
  if (!user) throw new RelayError('unauthenticated')
  return user
}
