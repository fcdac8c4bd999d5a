/**
 * Every code, secret and token of this area is random, long or rate-limited, and kept only as a
 * SHA-256 digest (docs/architecture.md §8): a leaked table hands out nothing usable. High-entropy secrets need
 * no slow hash; the 40-bit device codes are protected by their lifetime and the throttle instead.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Spent and expired codes are kept a day before a sweep deletes them, so a replayed code is
 * still recognised as one (and can end what it produced) rather than looking merely unknown.
 */
export const spentCodeRetentionMs = 24 * 3600 * 1000

export function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** 256 random bits, URL-safe, with a prefix that tells what the secret is for. */
export function randomSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`
}

/** Constant-time comparison of two digests or other equal-length encodings. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** RFC 7636 S256: BASE64URL(SHA-256(ASCII(code_verifier))). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}
