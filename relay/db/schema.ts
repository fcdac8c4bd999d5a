/**
 * Table interfaces for Kysely. Each domain area adds its tables here beside its migration in
 * migrations/. Conventions (portable across SQLite and PostgreSQL):
 * - ids are BIGINT snowflakes, typed `string` (see ids.ts);
 * - timestamps are BIGINT epoch milliseconds named `*_timestamp` (or `*_at` for internal ones);
 * - points and counters are INTEGER, typed `number`;
 * - flags are INTEGER 0/1 (SQLite has no boolean type; both drivers then return numbers).
 */
import type { UserStatus, UserType } from '../contract/accounts.ts'

/** Fixed-window counters of the rate limiter (http/rate-limit.ts). */
export interface RateLimitsTable {
  /** `<rule name>:<subject>`, e.g. `login-ip:203.0.113.9`. */
  key: string
  window_start: number
  count: number
}

export interface Tables {
  rate_limits: RateLimitsTable
}
