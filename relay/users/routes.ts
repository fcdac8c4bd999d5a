/** The signed-in user's own account: info, profile, password; plus the availability checks. */
import { accountEndpoints, emailSchema, usernameSchema } from '../contract/accounts.ts'
import { hashPassword, verifyPassword } from '../auth/passwords.ts'
import { accountLimits } from '../auth/rate-limits.ts'
import { revokeAllRefreshTokens } from '../auth/refresh-tokens.ts'
import { tokenPair } from '../auth/sessions.ts'
import { requestOrigin } from '../auth/account-security.ts'
import { twoFactorEnabled } from '../auth/two-factor.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { loadSubscriptions } from '../subscriptions/history.ts'
import { loadPointsBlock } from './points-block.ts'
import { findUserByEmail, findUserById, findUserByUsername, toUser } from './users.ts'

export function userRoutes(services: RelayServices): Route[] {
  const { db, clock, limiter } = services

  return [
    defineRoute(accountEndpoints.info, async ({ user, lang }) => {
      const enabled = await twoFactorEnabled(db, user.id)
      return {
        user: toUser(user),
        points: await loadPointsBlock(services, user.id, lang),
        subscriptions: await loadSubscriptions(db, user.id, clock.now(), lang),
        two_factor: { enabled, must_enrol: !enabled && user.user_type === 'admin' && services.config.requireAdminTwoFactor },
      }
    }),

    defineRoute(accountEndpoints.checkUsername, async ({ query, clientIp }) => {
      await limiter.enforce(accountLimits.checkPerIp, clientIp)
      const valid = usernameSchema.safeParse(query.username)
      return { available: valid.success && !(await findUserByUsername(db, valid.data)) }
    }),

    defineRoute(accountEndpoints.checkEmail, async ({ query, clientIp }) => {
      await limiter.enforce(accountLimits.checkPerIp, clientIp)
      const valid = emailSchema.safeParse(query.email)
      return { available: valid.success && !(await findUserByEmail(db, valid.data)) }
    }),

    defineRoute(accountEndpoints.profile, async ({ body, user }) => {
      const changes: Partial<Record<'name' | 'phone' | 'company' | 'avatar', string | null>> = {}
      for (const field of ['name', 'phone', 'company', 'avatar'] as const) {
        const value = body[field]
        if (value !== undefined) changes[field] = value === '' ? null : value
      }
      await db
        .updateTable('users')
        .set({ ...changes, update_timestamp: clock.now() })
        .where('id', '=', user.id)
        .execute()
      const updated = await findUserById(db, user.id)
      if (!updated) throw new RelayError('unauthenticated')
      return toUser(updated)
    }),

    defineRoute(accountEndpoints.password, async ({ body, user, clientIp, c }) => {
      if (!(await verifyPassword(body.old_password, user.password_hash))) throw new RelayError('old_password_wrong')
      const passwordHash = await hashPassword(body.new_password, services.config.passwordCost)
      // Guarded on the version we authenticated with: of two parallel changes only one wins.
      const changed = await db
        .updateTable('users')
        .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), update_timestamp: clock.now() }))
        .where('id', '=', user.id)
        .where('token_version', '=', user.token_version)
        .executeTakeFirst()
      if (changed.numUpdatedRows !== 1n) throw new RelayError('unauthenticated')
      await revokeAllRefreshTokens(services, user.id)
      return tokenPair(services, { ...user, token_version: user.token_version + 1 }, requestOrigin(c, clientIp))
    }),
  ]
}
