/**
 * Password hashing with scrypt from node:crypto (DESIGN §8). The stored form carries its
 * parameters, `scrypt$N$r$p$salt$hash`, so they can be raised later without breaking old hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/** OWASP's scrypt floor (32 MiB, about 0.1–0.3 s per hash): memory-hard yet fine for small hosts. */
const cost = { N: 2 ** 15, r: 8, p: 3 }
const keyLength = 64
// scrypt needs 128 · N · r bytes; node's default ceiling (32 MiB) is exactly that, so leave room.
const maxmem = 64 * 1024 * 1024

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, cost)
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/**
 * For a login name that matches no user: spend the same time as a real check, so response
 * times do not tell which names exist.
 */
let decoy: Promise<string> | undefined
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword('decoy password, never matches')
  await verifyPassword(password, await decoy)
  return false
}
