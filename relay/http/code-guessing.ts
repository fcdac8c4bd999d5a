/**
 * Limits on trying secret codes (redeem codes, team codes): per account, generous for people and
 * useless for guessing 80 or 128 bits; and per address, so twenty accounts made from one address
 * do not get twenty allowances. The per-address allowance is wider, as many users in China share
 * one address behind carrier NAT.
 */
import { rateLimitRule, type RateLimiter } from './rate-limit.ts'

/** Who is trying a code. */
export interface CodeGuesser {
  userId: string
  clientIp: string
}

export function codeGuessLimits(name: string): (limiter: RateLimiter, guesser: CodeGuesser) => Promise<void> {
  const perAccount = rateLimitRule(name, 30, 600)
  const perAddress = rateLimitRule(`${name}-ip`, 300, 600)
  return async (limiter, { userId, clientIp }) => {
    await limiter.enforce(perAccount, userId)
    await limiter.enforce(perAddress, clientIp)
  }
}
