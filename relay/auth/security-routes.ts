/** The signed-in user's account security: the second factor, sessions, client grants (docs/decisions/099-sign-in.md). */
import { securityEndpoints } from '../contract/security.ts'
import { callerSessionId } from '../http/authenticate.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { revokeUserGrant } from '../oauth/tokens.ts'
import type { RelayServices } from '../services.ts'
import type { UserRow } from '../users/users.ts'
import { securityOverview } from './account-security.ts'
import { admitPasswordAttempt, clearPasswordFailures, recordPasswordFailure, throttleSubject, type ThrottleSubject } from './login-throttle.ts'
import { verifyPassword } from './passwords.ts'
import { revokeOtherSessions, revokeSession } from './refresh-tokens.ts'
import {
  confirmEnrolment,
  pendingEnrolment,
  recoveryCodesLeft,
  regenerateRecoveryCodes,
  removeTwoFactor,
  spendSecondFactor,
  startEnrolment,
  twoFactorEnabled,
} from './two-factor.ts'

export function securityRoutes(services: RelayServices): Route[] {
  const { db, clock, config } = services

  /** A change to the factor of an account that has one, through the account's sign-in throttle. */
  async function admitFactorChange(user: UserRow): Promise<ThrottleSubject> {
    if (!(await twoFactorEnabled(db, user.id))) throw new RelayError('two_factor_not_enabled')
    const subject = throttleSubject(user, '')
    await admitPasswordAttempt(db, subject, clock.now())
    return subject
  }

  /** Spends a current code for the change; a wrong one counts as a failed sign-in. */
  async function spendFactorChangeCode(user: UserRow, subject: ThrottleSubject, code: string): Promise<void> {
    if ((await spendSecondFactor(services, user.id, code)) === null) {
      await recordPasswordFailure(db, subject, clock.now())
      throw new RelayError('two_factor_invalid')
    }
    await clearPasswordFailures(db, user.id)
  }

  return [
    defineRoute(securityEndpoints.twoFactor, async ({ user }) => {
      const [enabled, left, enrolment] = await Promise.all([twoFactorEnabled(db, user.id), recoveryCodesLeft(db, user.id), pendingEnrolment(services, user)])
      return { enabled, required: config.requireAdminTwoFactor && user.user_type === 'admin', recovery_codes_left: left, enrolment }
    }),

    defineRoute(securityEndpoints.startTwoFactor, async ({ user }) => startEnrolment(services, user)),

    defineRoute(securityEndpoints.enableTwoFactor, async ({ user, body }) => ({ recovery_codes: await confirmEnrolment(services, user, body.code) })),

    // A stolen session alone cannot turn the factor off: it takes the password and a code, both
    // slowed per account like a sign-in.
    defineRoute(securityEndpoints.disableTwoFactor, async ({ user, body }) => {
      const subject = await admitFactorChange(user)
      if (!(await verifyPassword(body.password, user.password_hash))) {
        await recordPasswordFailure(db, subject, clock.now())
        throw new RelayError('old_password_wrong')
      }
      await spendFactorChangeCode(user, subject, body.code)
      await removeTwoFactor(db, user.id)
      return { ok: true as const }
    }),

    // New codes for a session that can prove the factor now: a stolen session alone cannot mint
    // recovery codes of its own.
    defineRoute(securityEndpoints.regenerateRecoveryCodes, async ({ user, body }) => {
      const subject = await admitFactorChange(user)
      await spendFactorChangeCode(user, subject, body.code)
      return { recovery_codes: await regenerateRecoveryCodes(db, user.id) }
    }),

    defineRoute(securityEndpoints.overview, async ({ user, c }) => securityOverview(services, user.id, await callerSessionId(c, services))),

    defineRoute(securityEndpoints.endSession, async ({ user, params }) => {
      if (!(await revokeSession(services, user.id, params.id))) throw new RelayError('not_found')
      return { ok: true as const }
    }),

    defineRoute(securityEndpoints.endOtherSessions, async ({ user, c }) => ({
      ended: await revokeOtherSessions(services, user.id, await callerSessionId(c, services)),
    })),

    defineRoute(securityEndpoints.revokeGrant, async ({ user, params }) => {
      if (!(await revokeUserGrant(services, user.id, params.id))) throw new RelayError('not_found')
      return { ok: true as const }
    }),
  ]
}
