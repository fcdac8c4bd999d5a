/**
 * Password guessing against one account from many addresses (docs/decisions/099-sign-in.md). The limits per
 * address (rate-limits.ts) do not see an attacker who spreads attempts over twenty addresses, so
 * each account also slows down after a few failures: the first five are free, then each next
 * attempt — from anywhere — waits 1, 2, 4 … seconds after the one before, at most a minute.
 * An attacker gets about one guess a minute per account; a browser that signed in to the account
 * before is not delayed by it at all (device-tokens.ts). A successful sign-in clears the count.
 * A name no account has is counted and delayed exactly alike, so a 429 does not tell whether an
 * account exists.
 */
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'

const freeFailures = 5
const longestDelayMs = 60_000

function delayAfter(failures: number): number {
  return failures < freeFailures ? 0 : Math.min(longestDelayMs, 1000 * 2 ** (failures - freeFailures))
}

function tooSoon(waitMs: number): RelayError {
  return new RelayError('rate_limited', undefined, { retry_after: Math.max(1, Math.ceil(waitMs / 1000)) })
}

/** What the failures of a sign-in attempt count against; only `throttleSubject` makes one, so a bare user id cannot slip in. */
export type ThrottleSubject = string & { readonly throttleSubject: unique symbol }

/** The account, or the unknown name tried. */
export function throttleSubject(user: { id: string } | undefined, login: string): ThrottleSubject {
  return (user ? `user:${user.id}` : `name:${login}`) as ThrottleSubject
}

/** Lets one password attempt at `subject` through now, or throws 429 `rate_limited` with `retry_after`. */
export async function admitPasswordAttempt(db: Database, subject: ThrottleSubject, now: number): Promise<void> {
  const row = await db.selectFrom('login_failures').select(['failures', 'attempt_at']).where('subject', '=', subject).executeTakeFirst()
  if (!row || row.failures < freeFailures) return
  const wait = row.attempt_at + delayAfter(row.failures) - now
  if (wait > 0) throw tooSoon(wait)
  // Claimed: of parallel attempts in one slot, one goes through.
  const claimed = await db
    .updateTable('login_failures')
    .set({ attempt_at: now })
    .where('subject', '=', subject)
    .where('attempt_at', '=', row.attempt_at)
    .executeTakeFirst()
  if (claimed.numUpdatedRows !== 1n) throw tooSoon(delayAfter(row.failures))
}

export async function recordPasswordFailure(db: Database, subject: ThrottleSubject, now: number): Promise<void> {
  await db
    .insertInto('login_failures')
    .values({ subject, failures: 1, attempt_at: now })
    .onConflict((oc) => oc.column('subject').doUpdateSet((eb) => ({ failures: eb('login_failures.failures', '+', 1), attempt_at: now })))
    .execute()
}

export async function clearPasswordFailures(db: Database, userId: string): Promise<void> {
  await db.deleteFrom('login_failures').where('subject', '=', throttleSubject({ id: userId }, '')).execute()
}
