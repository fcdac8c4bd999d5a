/**
 * Short-lived HS256 JWT access tokens: `sub` is the user id, `ver` the user's token version
 * (bumped on password change or reset, which ends every outstanding access token at once).
 */
import { SignJWT, errors, jwtVerify } from 'jose'
import type { Clock } from '../clock.ts'
import type { RelayConfig } from '../config.ts'
import { RelayError } from '../http/relay-error.ts'

export interface AccessClaims {
  userId: string
  version: number
}

const encoder = new TextEncoder()

export async function signAccessToken(
  config: RelayConfig,
  clock: Clock,
  user: { id: string; token_version: number },
): Promise<string> {
  const issuedAt = Math.floor(clock.now() / 1000)
  return new SignJWT({ ver: user.token_version })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + config.accessTokenTtlSeconds)
    .sign(encoder.encode(config.jwtSecrets[0]))
}

/** Throws 401 `token_expired` or `unauthenticated`. Tries every configured secret (rotation). */
export async function verifyAccessToken(config: RelayConfig, clock: Clock, token: string): Promise<AccessClaims> {
  for (const secret of config.jwtSecrets) {
    try {
      const { payload } = await jwtVerify(token, encoder.encode(secret), {
        algorithms: ['HS256'],
        currentDate: new Date(clock.now()),
      })
      if (typeof payload.sub !== 'string' || !/^\d+$/.test(payload.sub) || typeof payload.ver !== 'number') break
      return { userId: payload.sub, version: payload.ver }
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new RelayError('token_expired')
      if (error instanceof errors.JWSSignatureVerificationFailed) continue
      break
    }
  }
  throw new RelayError('unauthenticated')
}
