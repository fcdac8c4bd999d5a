/**
 * TOTP (RFC 6238: SHA-1, six digits, 30-second steps) through `otpauth` (docs/decisions/099-sign-in.md).
 * A code is accepted for the current step and one on either side (a phone's clock a little off,
 * a code typed as it turned over); `two-factor.ts` then refuses any step not newer than the last
 * one accepted, so a code works once.
 *
 * The key is stored sealed (AES-256-GCM) under a key derived from JWT_SECRET, not in clear
 * (docs/decisions/071-secrets-sealed-with-jwt-secret.md): a copy of the database alone gives no one the codes. As with tokens, the
 * first secret seals and every listed one opens, so JWT_SECRET rotates the usual way.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import type { RelayConfig } from '../config.ts'

const period = 30
/** Steps accepted either side of the current one. */
const window = 1

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

/** The `otpauth://` address an authenticator app reads from the QR code. */
export function otpauthUri(config: Pick<RelayConfig, 'publicUrl'>, secret: string, username: string): string {
  const issuer = new URL(config.publicUrl).host
  return new TOTP({ issuer, label: username, secret: Secret.fromBase32(secret), period }).toString()
}

/** The step `code` belongs to at `now` (epoch ms), within the window; null when it matches none. */
export function stepOfCode(secret: string, code: string, now: number): number | null {
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), period, timestamp: now, window })
  return delta === null ? null : TOTP.counter({ period, timestamp: now }) + delta
}

/** The code of `secret` at `at` (epoch ms); for the tests and the operator's own checks. */
export function totpCode(secret: string, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), period, timestamp: at })
}

function sealingKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'relay', 'two-factor secret', 32))
}

/** `v1.<iv>.<ciphertext and tag>`, base64url. */
export function sealSecret(config: Pick<RelayConfig, 'jwtSecrets'>, secret: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealingKey(config.jwtSecrets[0]!), iv)
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`
}

/** The secret, or null when no configured JWT_SECRET opens it (one that sealed it was removed). */
export function openSecret(config: Pick<RelayConfig, 'jwtSecrets'>, sealed: string): string | null {
  const [version, iv, body] = sealed.split('.')
  if (version !== 'v1' || !iv || !body) return null
  const bytes = Buffer.from(body, 'base64url')
  for (const jwtSecret of config.jwtSecrets) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', sealingKey(jwtSecret), Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(bytes.subarray(bytes.length - 16))
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8')
    } catch {
      // Sealed under another of the listed secrets: try the next.
    }
  }
  return null
}
