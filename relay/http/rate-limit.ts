/**
 * Window counters kept in the database, so limits hold across relay instances and restarts
 * (docs/architecture.md §8, docs/decisions/012-request-limits.md). One row per rule and subject; a single upsert both
 * increments and, once the window has run out, starts a new one, so the count is exact under any
 * concurrency on SQLite and PostgreSQL alike. A window starts with its subject's first request, not
 * on the clock's minute: "one code a minute" then means a minute after the last code
 * (docs/decisions/012-request-limits.md).
 */
import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/open-database.ts'
import type { Logger } from '../logger.ts'
import { RelayError } from './relay-error.ts'

export interface RateLimitRule {
  /** Unique per rule; part of the counter key. */
  name: string
  /** Requests allowed per window. */
  limit: number
  windowSeconds: number
}

const longestWindowSeconds = 24 * 3600
/** Stale counters are swept now and then by a request, so no scheduler is needed. */
const sweepEveryHits = 500

export function rateLimitRule(name: string, limit: number, windowSeconds: number): RateLimitRule {
  if (windowSeconds > longestWindowSeconds) throw new RangeError(`rate limit ${name}: window longer than a day`)
  return { name, limit, windowSeconds }
}

export class RateLimiter {
  readonly #db: Database
  readonly #clock: Clock
  readonly #logger: Logger | undefined
  #hitsSinceSweep = 0

  /** `logger`: told when an allowance is spent, so an operator sees guessing and abuse. */
  constructor(db: Database, clock: Clock, logger?: Logger) {
    this.#db = db
    this.#clock = clock
    this.#logger = logger
  }

  /**
   * Counts one request by `subject` (an IP, an e-mail…) against `rule`; throws 429
   * `rate_limited` with `retry_after` seconds once the window's allowance is spent.
   */
  async enforce(rule: RateLimitRule, subject: string): Promise<void> {
    const now = this.#clock.now()
    const windowMs = rule.windowSeconds * 1000
    // Hashed: bounded key length, and no e-mail addresses or IPs at rest in this table.
    const key = `${rule.name}:${createHash('sha256').update(subject).digest('base64url').slice(0, 32)}`
    const row = await this.#db
      .insertInto('rate_limits')
      .values({ key, window_start: now, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          // Both SET expressions read the row as it was before this update; its window still runs
          // when it began less than a window before now (excluded.window_start).
          count: sql<number>`case when rate_limits.window_start > excluded.window_start - ${windowMs} then rate_limits.count + 1 else 1 end`,
          window_start: sql<number>`case when rate_limits.window_start > excluded.window_start - ${windowMs} then rate_limits.window_start else excluded.window_start end`,
        }),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow()
    await this.#maybeSweep(now)
    if (row.count > rule.limit) {
      // Once per window and subject: the first refusal.
      if (row.count === rule.limit + 1) this.#logger?.warn('rate limit reached', { rule: rule.name, subject: key })
      const retryAfter = Math.max(1, Math.ceil((row.window_start + windowMs - now) / 1000))
      throw new RelayError('rate_limited', undefined, { retry_after: retryAfter })
    }
  }

  async #maybeSweep(now: number): Promise<void> {
    if (++this.#hitsSinceSweep < sweepEveryHits) return
    this.#hitsSinceSweep = 0
    await this.#db
      .deleteFrom('rate_limits')
      .where('window_start', '<', now - longestWindowSeconds * 1000)
      .execute()
  }
}
