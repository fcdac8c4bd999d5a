/**
 * Limits of this area (docs/architecture.md §8, RFC 8628 §5.1). A device code has 40 bits and lives 10
 * minutes, so guessing one is hopeless only while guesses are few: every look-up of a typed code
 * (verify or decide) counts, per account and across all accounts, kept in the database so the
 * limits hold across relay instances. A person verifies and then approves: two look-ups.
 */
import { rateLimitRule } from '../http/rate-limit.ts'

export const oauthLimits = {
  deviceLookupPerUser: rateLimitRule('device-lookup-user', 20, 15 * 60),
  /** Across every account: stops a spread of fresh accounts guessing together. */
  deviceLookupGlobal: rateLimitRule('device-lookup-global', 2000, 15 * 60),
  /** Each device authorisation is a row; generous, as many CLI users share one address in China. */
  deviceStartPerIp: rateLimitRule('device-start-ip', 120, 15 * 60),
} as const

/** The subject of the global rule: one counter for everyone. */
export const everyone = 'all'
