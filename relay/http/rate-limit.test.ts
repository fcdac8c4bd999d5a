import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../tests/fixtures/relay-harness.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { migrateToLatest } from '../db/migrate.ts'
import type { Database } from '../db/open-database.ts'
import { RateLimiter, rateLimitRule } from './rate-limit.ts'
import { RelayError } from './relay-error.ts'

describe.each(databaseKinds())('rate limiter on %s', (kind) => {
  let testDb: TestDatabase
  let db: Database
  const clock = new ManualClock(Date.UTC(2025, 0, 1, 12, 0, 0))

  beforeAll(async () => {
    testDb = await createTestDatabase(kind)
    db = testDb.open()
    await migrateToLatest(db)
  })
  afterAll(async () => {
    await db.destroy()
    await testDb.dispose()
  })

  const outcome = (promise: Promise<void>) =>
    promise.then(
      () => 'allowed' as const,
      (error: unknown) => {
        if (error instanceof RelayError && error.reason === 'rate_limited') return 'limited' as const
        throw error
      },
    )

  it('lets exactly `limit` of 20 parallel requests through, also from two relay instances', async () => {
    const rule = rateLimitRule('parallel', 7, 60)
    const second = testDb.open()
    try {
      const limiters = [new RateLimiter(db, clock), new RateLimiter(second, clock)]
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => outcome(limiters[i % 2]!.enforce(rule, 'subject'))),
      )
      expect(results.filter((r) => r === 'allowed')).toHaveLength(7)
    } finally {
      await second.destroy()
    }
  })

  it('tells when to retry: a window runs from its first request, not from the minute on the clock', async () => {
    const rule = rateLimitRule('window', 2, 60)
    const limiter = new RateLimiter(db, clock)
    clock.set(Date.UTC(2025, 0, 1, 12, 5, 50))
    await limiter.enforce(rule, 'a')
    clock.advance(5_000)
    await limiter.enforce(rule, 'a')
    clock.advance(10_000)
    // Past 12:06, still the window begun at 12:05:50.
    const error = await limiter.enforce(rule, 'a').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RelayError)
    expect((error as RelayError).details.retry_after).toBe(45)
    // Other subjects and rules count separately.
    await limiter.enforce(rule, 'b')
    await limiter.enforce(rateLimitRule('other', 1, 60), 'a')
    clock.advance(44_999)
    expect(await outcome(limiter.enforce(rule, 'a'))).toBe('limited')
    clock.advance(1)
    await expect(limiter.enforce(rule, 'a')).resolves.toBeUndefined()
    // The new window began with that request: one more, then a wait of a whole window.
    await limiter.enforce(rule, 'a')
    const next = await limiter.enforce(rule, 'a').catch((e: unknown) => e)
    expect((next as RelayError).details.retry_after).toBe(60)
  })
})
