/**
 * Six-digit e-mail codes for registration and password reset (docs/architecture.md §8): stored hashed,
 * single-use, expiring (EMAIL_CODE_TTL), dead after EMAIL_CODE_MAX_ATTEMPTS tries, and a new
 * code voids the previous one.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import type { Transaction } from 'kysely'
import { newId } from '../db/ids.ts'
import type { EmailCodePurpose, Tables } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

function hashCode(email: string, purpose: EmailCodePurpose, code: string): string {
  // Salted by address and purpose, so one table of the million codes cannot cover every row.
  return createHash('sha256').update(`${purpose}:${email}:${code}`).digest('hex')
}

/** Creates a code, voiding any earlier one for the same address and purpose; returns it in clear. */
export async function issueEmailCode({ db, clock, config }: Services, email: string, purpose: EmailCodePurpose): Promise<string> {
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0')
  const now = clock.now()
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('email_codes')
      .set({ consumed_at: now })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute()
    await trx
      .insertInto('email_codes')
      .values({
        id: newId(),
        email,
        purpose,
        code_hash: hashCode(email, purpose, code),
        attempts: 0,
        created_at: now,
        expires_at: now + config.emailCodeTtlSeconds * 1000,
        consumed_at: null,
      })
      .execute()
  })
  return code
}

/**
 * Checks `code` against the live code for the address and returns that code's id; it stays
 * live until `consumeEmailCode` (called in the transaction that acts on it). Every check spends
 * one try before comparing, so even parallel guesses get at most the allowed number of tries.
 */
export async function checkEmailCode(
  { db, clock, config }: Services,
  email: string,
  purpose: EmailCodePurpose,
  code: string,
): Promise<string> {
  const live = await db
    .selectFrom('email_codes')
    .select(['id', 'code_hash', 'expires_at'])
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  if (!live) throw new RelayError('code_invalid')
  if (live.expires_at <= clock.now()) throw new RelayError('code_expired')
  const spent = await db
    .updateTable('email_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', live.id)
    .where('consumed_at', 'is', null)
    .where('attempts', '<', config.emailCodeMaxAttempts)
    .returning('attempts')
    .executeTakeFirst()
  if (!spent) throw new RelayError('code_attempts_exceeded')
  const matches = timingSafeEqual(Buffer.from(hashCode(email, purpose, code)), Buffer.from(live.code_hash))
  if (!matches) {
    throw new RelayError('code_invalid', undefined, { attempts_left: config.emailCodeMaxAttempts - spent.attempts })
  }
  return live.id
}

/** Marks the code used; false when a parallel request used it first. */
export async function consumeEmailCode(trx: Transaction<Tables>, codeId: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('email_codes')
    .set({ consumed_at: now })
    .where('id', '=', codeId)
    .where('consumed_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}
