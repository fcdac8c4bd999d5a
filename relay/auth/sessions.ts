/** What a successful login, registration or password change hands back. */
import type { LoginData, TokenPair } from '../contract/accounts.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import type { RelayServices } from '../services.ts'
import { loadPointsBlock } from '../users/points-block.ts'
import { toUser, type UserRow } from '../users/users.ts'
import { signAccessToken } from './access-tokens.ts'
import { issueRefreshToken, type IssuedRefreshToken } from './refresh-tokens.ts'

/** Tokens of `refresh`'s session (a refresh), or of a new session (a sign-in). */
export async function tokenPair(services: RelayServices, user: UserRow, refresh?: IssuedRefreshToken): Promise<TokenPair> {
  const { config, clock } = services
  const { token, sessionId, expiresAt } = refresh ?? (await issueRefreshToken(services, user.id))
  return {
    access_token: await signAccessToken(config, clock, user, sessionId),
    refresh_token: token,
    expires_in: config.accessTokenTtlSeconds,
    refresh_expires_in: Math.max(0, Math.floor((expiresAt - clock.now()) / 1000)),
  }
}

/** A new session (a new refresh-token family) for `user`. */
export async function loginData(services: RelayServices, user: UserRow, lang: ContentLanguage): Promise<LoginData> {
  const [pair, points] = await Promise.all([tokenPair(services, user), loadPointsBlock(services, user.id, lang)])
  return { ...pair, user: toUser(user), login_success: true, points }
}
