/** What a successful login, registration or password change hands back. */
import type { LoginData, TokenPair } from '../contract/accounts.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import type { RelayServices } from '../services.ts'
import { loadPointsBlock } from '../users/points-block.ts'
import { toUser, type UserRow } from '../users/users.ts'
import { signAccessToken } from './access-tokens.ts'
import { recordSession, recordSignIn, type RequestOrigin } from './account-security.ts'
import { clearPasswordFailures } from './login-throttle.ts'
import { signDeviceToken } from './device-tokens.ts'
import { issueRefreshToken, type IssuedRefreshToken } from './refresh-tokens.ts'
import { noteSignIn } from '../notifications/events.ts'

/**
 * Tokens of `session`'s session when it is a refresh token (a refresh), or of a new session
 * started from `session`, the request's origin (a sign-in), recorded for the security page.
 */
export async function tokenPair(services: RelayServices, user: UserRow, session: IssuedRefreshToken | RequestOrigin): Promise<TokenPair> {
  const { config, clock } = services
  let refresh: IssuedRefreshToken
  if ('token' in session) refresh = session
  else {
    refresh = await issueRefreshToken(services, user.id)
    await recordSession(services.db, refresh.sessionId, user.id, session, clock.now())
  }
  const { token, sessionId, expiresAt } = refresh
  return {
    access_token: await signAccessToken(config, clock, user, sessionId),
    refresh_token: token,
    expires_in: config.accessTokenTtlSeconds,
    refresh_expires_in: Math.max(0, Math.floor((expiresAt - clock.now()) / 1000)),
  }
}

/** A new session (a new refresh-token family) for `user`, and a device token for the browser. */
export async function loginData(services: RelayServices, user: UserRow, lang: ContentLanguage, origin: RequestOrigin): Promise<LoginData> {
  const [pair, points, deviceToken] = await Promise.all([tokenPair(services, user, origin), loadPointsBlock(services, user.id, lang), signDeviceToken(services, user.id)])
  return { ...pair, user: toUser(user), login_success: true, points, device_token: deviceToken }
}

/**
 * Every step of a sign-in passed: the failure count clears, the attempt is recorded (as
 * `recovery_code` when one of those stood in for the code, so the history shows it), a session starts.
 */
export async function completeSignIn(
  services: RelayServices,
  user: UserRow,
  lang: ContentLanguage,
  origin: RequestOrigin,
  outcome: 'success' | 'recovery_code' = 'success',
): Promise<LoginData> {
  const { db, clock } = services
  const now = clock.now()
  await clearPasswordFailures(db, user.id)
  await db.updateTable('users').set({ last_login_timestamp: now }).where('id', '=', user.id).execute()
  await recordSignIn(db, user.id, outcome, origin, now)
  // A device not seen before is mailed about (docs/decisions/125-mail-and-announcements.md).
  await noteSignIn(services, { userId: user.id, userAgent: origin.userAgent, ip: origin.clientIp, lang, now })
  return loginData(services, { ...user, last_login_timestamp: now }, lang, origin)
}
