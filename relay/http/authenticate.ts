import type { Context } from 'hono'
import type { Selectable } from 'kysely'
import { verifyAccessToken } from '../auth/access-tokens.ts'
import type { UsersTable } from '../db/schema.ts'
import type { RelayServices } from '../services.ts'
import { RelayError } from './relay-error.ts'

export type AuthUser = Selectable<UsersTable>

/**
 * The user behind `Authorization: Bearer <access token>`. The token must verify, its `ver` must
 * match the user's current token version, and the user must be active; otherwise 401, so the
 * portal logs out.
 */
export async function authenticate(c: Context, services: RelayServices): Promise<AuthUser> {
  const header = c.req.header('authorization')
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1]
  if (!token) throw new RelayError('unauthenticated')
  const claims = await verifyAccessToken(services.config, services.clock, token)
  const user = await services.db.selectFrom('users').selectAll().where('id', '=', claims.userId).executeTakeFirst()
  if (!user || user.token_version !== claims.version || user.status !== 'active') {
    throw new RelayError('unauthenticated')
  }
  return user
}
