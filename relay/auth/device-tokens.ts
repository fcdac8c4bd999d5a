/**
 * Device cookies against lockout (docs/decisions/099-sign-in.md): a browser that signed in to an account
 * before carries a signed token naming that account and a random device id. A password attempt
 * with a valid one is limited per device (`accountLimits.loginPerDevice`) instead of by the
 * account-wide delay (login-throttle.ts), so guessing from many addresses slows the attacker but
 * never the owner's own browser; a stolen token still gets only its own small allowance.
 */
import { randomUUID } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import type { RelayServices } from '../services.ts'

/** Long enough that a browser used now and then keeps its standing. */
export const deviceTokenTtlSeconds = 365 * 24 * 3600

const encoder = new TextEncoder()
/** Its own audience: never an access token or a sign-in challenge. */
const deviceAudience = (config: RelayServices['config']) => `${config.publicUrl}#device`

/** A new device token for `userId`, handed back by every sign-in. */
export async function signDeviceToken({ config, clock }: Pick<RelayServices, 'config' | 'clock'>, userId: string): Promise<string> {
  const issuedAt = Math.floor(clock.now() / 1000)
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(randomUUID())
    .setIssuer(config.publicUrl)
    .setAudience(deviceAudience(config))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + deviceTokenTtlSeconds)
    .sign(encoder.encode(config.jwtSecrets[0]))
}

/** The device id of `token` when it is a valid device token of `userId`; otherwise undefined. */
export async function trustedDevice({ config, clock }: Pick<RelayServices, 'config' | 'clock'>, token: string | undefined, userId: string): Promise<string | undefined> {
  if (!token) return undefined
  for (const secret of config.jwtSecrets) {
    try {
      const { payload } = await jwtVerify(token, encoder.encode(secret), {
        algorithms: ['HS256'],
        issuer: config.publicUrl,
        audience: deviceAudience(config),
        requiredClaims: ['exp', 'sub', 'jti'],
        currentDate: new Date(clock.now()),
      })
      return payload.sub === userId ? payload.jti : undefined
    } catch {
      // Another secret (rotation), or not a device token: untrusted.
    }
  }
  return undefined
}
