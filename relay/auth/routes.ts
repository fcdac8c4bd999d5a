/** Sign-in (both steps), registration, sessions and e-mail codes: the account calls that need no access token. */
import { accountEndpoints } from '../contract/accounts.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { isUniqueViolation } from '../db/open-database.ts'
import type { EmailCodePurpose } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { findUserByEmail, findUserById, findUserByInviteCode, findUserByLogin, findUserByUsername, insertUser } from '../users/users.ts'
import { codeMail } from './code-mail.ts'
import { checkEmailCode, consumeEmailCode, issueEmailCode } from './email-codes.ts'
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords.ts'
import { accountLimits } from './rate-limits.ts'
import { revokeAllRefreshTokens, revokeRefreshToken, rotateRefreshToken } from './refresh-tokens.ts'
import { admitPasswordAttempt, recordPasswordFailure, throttleSubject } from './login-throttle.ts'
import { trustedDevice } from './device-tokens.ts'
import { completeSignIn, loginData, tokenPair } from './sessions.ts'
import { recordSignIn, requestOrigin, touchSession } from './account-security.ts'
import { challengeTtlSeconds, readChallenge, signChallenge, spendSecondFactor, twoFactorEnabled } from './two-factor.ts'
import { securityEndpoints } from '../contract/security.ts'
import { isSelfReferral } from '../referral/self-referral.ts'
import { noteSignIn } from '../notifications/events.ts'

export function authRoutes(services: RelayServices): Route[] {
  const { db, clock, limiter } = services

  async function enforceCodeLimits(email: string, clientIp: string): Promise<void> {
    await limiter.enforce(accountLimits.codeSendPerEmailMinute, email)
    await limiter.enforce(accountLimits.codeSendPerEmailHour, email)
    await limiter.enforce(accountLimits.codeSendPerIp, clientIp)
  }

  /** A new code and its mail; an SMTP failure is a 503 the user can retry, not a 500. */
  async function mailCode(email: string, purpose: EmailCodePurpose, lang: ContentLanguage): Promise<void> {
    const code = await issueEmailCode(services, email, purpose)
    try {
      await services.mailer.send(codeMail(email, purpose, code, services.config.emailCodeTtlSeconds, lang))
    } catch (error) {
      services.logger.error('mail delivery failed', { to: email, purpose, error: String(error) })
      throw new RelayError('unavailable', 'could not send the e-mail, try again later')
    }
  }

  /** A reset code for `email` if it is registered; run after the answer, failures only logged. */
  async function mailResetCode(email: string, lang: ContentLanguage): Promise<void> {
    try {
      if (await findUserByEmail(db, email)) await mailCode(email, 'reset', lang)
    } catch (error) {
      // mailCode logged an SMTP failure already.
      if (!(error instanceof RelayError)) services.logger.error('reset code not sent', { error: String(error) })
    }
  }

  // The per-e-mail minute starts with this code (docs/decisions/012-request-limits.md): the next may be asked for then.
  const codeSent = { ok: true as const, resend_after: accountLimits.codeSendPerEmailMinute.windowSeconds }

  return [
    defineRoute(accountEndpoints.login, async ({ body, clientIp, lang, c }) => {
      const login = body.username.toLowerCase()
      await limiter.enforce(accountLimits.loginPerIpAndName, `${clientIp}|${login}`)
      await limiter.enforce(accountLimits.loginPerIp, clientIp)
      const user = await findUserByLogin(db, login)
      // A browser that signed in before has its own allowance; everyone else shares the account's
      // delay, and a name no account has is delayed alike (login-throttle.ts).
      const device = user ? await trustedDevice(services, body.device_token, user.id) : undefined
      const subject = throttleSubject(user, login)
      if (device) await limiter.enforce(accountLimits.loginPerDevice, device)
      else await admitPasswordAttempt(db, subject, clock.now())
      const valid = user ? await verifyPassword(body.password, user.password_hash) : await verifyAgainstDecoy(body.password, services.config.passwordCost)
      const origin = requestOrigin(c, clientIp)
      if (!user || !valid) {
        if (!device) await recordPasswordFailure(db, subject, clock.now())
        if (user) await recordSignIn(db, user.id, 'password', origin, clock.now())
        throw new RelayError('invalid_credentials')
      }
      // Told only after the right password, so the status of an account is not probeable.
      if (user.status !== 'active') throw new RelayError('account_disabled')
      // The failure count stays until the code step passes too: guessing codes is slowed alike.
      if (await twoFactorEnabled(db, user.id)) {
        return { two_factor_required: true as const, challenge: await signChallenge(services, user, device), expires_in: challengeTtlSeconds }
      }
      return completeSignIn(services, user, lang, origin)
    }),

    defineRoute(securityEndpoints.loginTwoFactor, async ({ body, clientIp, lang, c }) => {
      await limiter.enforce(accountLimits.twoFactorPerIp, clientIp)
      const challenge = await readChallenge(services, body.challenge)
      const user = await findUserById(db, challenge.userId)
      // A password change since the password step ends the sign-in it began.
      if (!user || user.token_version !== challenge.version) throw new RelayError('two_factor_challenge_invalid')
      if (user.status !== 'active') throw new RelayError('account_disabled')
      // The device the password step trusted keeps its own allowance for the code too.
      const subject = throttleSubject(user, '')
      if (challenge.device) await limiter.enforce(accountLimits.loginPerDevice, challenge.device)
      else await admitPasswordAttempt(db, subject, clock.now())
      const origin = requestOrigin(c, clientIp)
      const factor = await spendSecondFactor(services, user.id, body.code)
      if (factor === null) {
        if (!challenge.device) await recordPasswordFailure(db, subject, clock.now())
        await recordSignIn(db, user.id, 'two_factor', origin, clock.now())
        throw new RelayError('two_factor_invalid')
      }
      return completeSignIn(services, user, lang, origin, factor === 'recovery_code' ? 'recovery_code' : 'success')
    }),

    defineRoute(accountEndpoints.register, async ({ body, clientIp, lang, c }) => {
      await limiter.enforce(accountLimits.registerPerIp, clientIp)
      const inviter = body.invite_code ? await findUserByInviteCode(db, body.invite_code) : undefined
      // One's own code, through another address of one's own mailbox, is no invitation.
      if (body.invite_code && (!inviter || isSelfReferral(inviter.email, body.email))) throw new RelayError('invite_code_invalid')
      await assertAvailable(services, body.username, body.email)
      await limiter.enforce(accountLimits.codeVerifyPerIp, clientIp)
      const codeId = await checkEmailCode(services, body.email, 'register', body.code)
      const passwordHash = await hashPassword(body.password, services.config.passwordCost)
      const now = clock.now()
      try {
        const user = await db.transaction().execute(async (trx) => {
          if (!(await consumeEmailCode(trx, codeId, now))) throw new RelayError('code_invalid')
          const created = await insertUser(trx, now, {
            username: body.username,
            email: body.email,
            passwordHash,
            invitedBy: inviter?.id ?? null,
          })
          await trx.updateTable('users').set({ last_login_timestamp: now }).where('id', '=', created.id).execute()
          return { ...created, last_login_timestamp: now }
        })
        const origin = requestOrigin(c, clientIp)
        // The first sign-in only records its device: nothing to warn about yet.
        await noteSignIn(services, { userId: user.id, userAgent: origin.userAgent, ip: clientIp, lang, now })
        return loginData(services, user, lang, origin)
      } catch (error) {
        // Lost a race with a parallel registration of the same name or address.
        if (isUniqueViolation(error)) await assertAvailable(services, body.username, body.email)
        throw error
      }
    }),

    defineRoute(accountEndpoints.refresh, async ({ body, clientIp }) => {
      await limiter.enforce(accountLimits.refreshPerIp, clientIp)
      const { userId, refresh } = await rotateRefreshToken(services, body.refresh_token)
      const user = await findUserById(db, userId)
      if (!user || user.status !== 'active') throw new RelayError('refresh_invalid')
      await touchSession(db, refresh.sessionId, clientIp, clock.now())
      return tokenPair(services, user, refresh)
    }),

    defineRoute(accountEndpoints.logout, async ({ body }) => {
      if (body.refresh_token) await revokeRefreshToken(services, body.refresh_token)
      return { ok: true as const }
    }),

    defineRoute(accountEndpoints.sendRegisterCode, async ({ body, clientIp, lang }) => {
      if (await findUserByEmail(db, body.email)) throw new RelayError('email_taken')
      await enforceCodeLimits(body.email, clientIp)
      await mailCode(body.email, 'register', lang)
      return codeSent
    }),

    defineRoute(accountEndpoints.sendResetCode, async ({ body, clientIp, lang }) => {
      // The same limits, and nothing else, on the way to the answer whether or not the address
      // is registered: neither a 429 nor the time taken tells (docs/decisions/099-sign-in.md).
      await enforceCodeLimits(body.email, clientIp)
      void mailResetCode(body.email, lang)
      return codeSent
    }),

    defineRoute(accountEndpoints.resetPassword, async ({ body, clientIp }) => {
      await limiter.enforce(accountLimits.codeVerifyPerIp, clientIp)
      const codeId = await checkEmailCode(services, body.email, 'reset', body.code)
      const user = await findUserByEmail(db, body.email)
      if (!user) throw new RelayError('code_invalid')
      const passwordHash = await hashPassword(body.new_password, services.config.passwordCost)
      const now = clock.now()
      await db.transaction().execute(async (trx) => {
        if (!(await consumeEmailCode(trx, codeId, now))) throw new RelayError('code_invalid')
        await trx
          .updateTable('users')
          .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), update_timestamp: now }))
          .where('id', '=', user.id)
          .execute()
      })
      await revokeAllRefreshTokens(services, user.id)
      return { ok: true as const }
    }),
  ]
}

/** 409 `username_taken` / `email_taken` when either is in use. */
async function assertAvailable({ db }: RelayServices, username: string, email: string): Promise<void> {
  if (await findUserByUsername(db, username)) throw new RelayError('username_taken')
  if (await findUserByEmail(db, email)) throw new RelayError('email_taken')
}
