/**
 * Password hashing with scrypt from node:crypto (docs/architecture.md §8). The stored form carries its
 * parameters, `scrypt$N$r$p$salt$hash`, so they can be raised later without breaking old hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * New hashes use N = 2^log2N with r 8, p 3; the default 15 is OWASP's scrypt floor (32 MiB, about
 * 0.1–0.3 s per hash): memory-hard yet fine for small hosts. The relay config (`PASSWORD_COST`)
 * raises it; tests lower it to keep suites fast. Verification reads the cost from the hash.
 */
function costOf(log2N: number): ScryptOptions {
  return { N: 2 ** log2N, r: 8, p: 3 }
}
const keyLength = 64
// scrypt needs 128 · N · r bytes; leave room above that for the largest allowed cost.
const maxmem = 2 ** 20 * 8 * 128 + 16 * 1024 * 1024

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}

export async function hashPassword(password: string, log2N: number): Promise<string> {
  const salt = randomBytes(16)
  const cost = costOf(log2N)
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
const decoys = new Map<number, Promise<string>>()
export async function verifyAgainstDecoy(password: string, log2N: number): Promise<false> {
  if (!decoys.has(log2N)) decoys.set(log2N, hashPassword('decoy password, never matches', log2N))
  await verifyPassword(password, await decoys.get(log2N)!)
  return false
}
