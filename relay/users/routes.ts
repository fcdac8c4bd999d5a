/** The signed-in user's own account: info, profile, password; plus the availability checks. */
import {
  accountPaths,
  availabilitySchema,
  changePasswordBody,
  checkEmailQuery,
  checkUsernameQuery,
  emailSchema,
  profileBody,
  tokenPairSchema,
  userInfoSchema,
  userSchema,
  usernameSchema,
} from '../contract/accounts.ts'
import { hashPassword, verifyPassword } from '../auth/passwords.ts'
import { accountLimits } from '../auth/rate-limits.ts'
import { revokeAllRefreshTokens } from '../auth/refresh-tokens.ts'
import { tokenPair } from '../auth/sessions.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { loadSubscriptions } from '../subscriptions/history.ts'
import { loadPointsBlock } from './points-block.ts'
import { findUserByEmail, findUserById, findUserByUsername, toUser } from './users.ts'

const tag = 'accounts'

export function userRoutes(services: RelayServices): Route[] {
  const { db, clock, limiter } = services

  return [
    defineRoute({
      method: 'get',
      path: accountPaths.info,
      summary: 'The signed-in user, their points/package block and subscriptions',
      tag,
      auth: 'user',
      response: userInfoSchema,
      handler: async ({ user, lang }) => ({
        user: toUser(user),
        points: await loadPointsBlock(services, user.id, lang),
        subscriptions: await loadSubscriptions(db, user.id, clock.now(), lang),
      }),
    }),

    defineRoute({
      method: 'get',
      path: accountPaths.checkUsername,
      summary: 'Is this username free to register?',
      description: 'A malformed username is reported as not available.',
      tag,
      auth: 'none',
      query: checkUsernameQuery,
      response: availabilitySchema,
      errors: ['rate_limited'],
      handler: async ({ query, clientIp }) => {
        await limiter.enforce(accountLimits.checkPerIp, clientIp)
        const valid = usernameSchema.safeParse(query.username)
        return { available: valid.success && !(await findUserByUsername(db, valid.data)) }
      },
    }),

    defineRoute({
      method: 'get',
      path: accountPaths.checkEmail,
      summary: 'Is this e-mail address free to register?',
      description: 'A malformed address is reported as not available.',
      tag,
      auth: 'none',
      query: checkEmailQuery,
      response: availabilitySchema,
      errors: ['rate_limited'],
      handler: async ({ query, clientIp }) => {
        await limiter.enforce(accountLimits.checkPerIp, clientIp)
        const valid = emailSchema.safeParse(query.email)
        return { available: valid.success && !(await findUserByEmail(db, valid.data)) }
      },
    }),

    defineRoute({
      method: 'put',
      path: accountPaths.profile,
      summary: 'Update name, phone, company and avatar',
      description: 'Only the fields present change; an empty string or null clears one.',
      tag,
      auth: 'user',
      scope: 'session',
      body: profileBody,
      response: userSchema,
      handler: async ({ body, user }) => {
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
      },
    }),

    defineRoute({
      method: 'put',
      path: accountPaths.password,
      summary: 'Change the password; returns fresh tokens for this session',
      description: 'Every other session ends: their access tokens stop working at once and their refresh tokens are revoked.',
      tag,
      auth: 'user',
      scope: 'session',
      body: changePasswordBody,
      response: tokenPairSchema,
      errors: ['old_password_wrong'],
      handler: async ({ body, user }) => {
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
        return tokenPair(services, { ...user, token_version: user.token_version + 1 })
      },
    }),
  ]
}
