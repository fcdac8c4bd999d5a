/** What a successful login, registration or password change hands back. */
import type { LoginData, TokenPair } from '../contract/accounts.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import type { RelayServices } from '../services.ts'
import { loadPointsBlock } from '../users/points-block.ts'
import { toUser, type UserRow } from '../users/users.ts'
import { signAccessToken } from './access-tokens.ts'
import { issueRefreshToken } from './refresh-tokens.ts'

export async function tokenPair(services: RelayServices, user: UserRow, refreshToken?: string): Promise<TokenPair> {
  const { config, clock } = services
  return {
    access_token: await signAccessToken(config, clock, user),
    refresh_token: refreshToken ?? (await issueRefreshToken(services, user.id)),
    expires_in: config.accessTokenTtlSeconds,
    refresh_expires_in: config.refreshTokenTtlSeconds,
  }
}

/** A new session (a new refresh-token family) for `user`. */
export async function loginData(services: RelayServices, user: UserRow, lang: ContentLanguage): Promise<LoginData> {
  const [pair, points] = await Promise.all([tokenPair(services, user), loadPointsBlock(services, user.id, lang)])
  return { ...pair, user: toUser(user), login_success: true, points }
}
