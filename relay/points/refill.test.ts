import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, redeemFresh, servicesOf } from '../../tests/fixtures/points.ts'
import { createPackage } from '../subscriptions/packages.ts'
import { spend } from './ledger.ts'
import { refillDue } from './refill.ts'
import { pointsSummary } from './summary.ts'
import { openDatabase } from '../db/open-database.ts'

const hour = 3_600_000
const day = 24 * hour

describe('refillDue', () => {
  const terms = { hour_points: 100, points_limit: 1000, end_timestamp: 100 * day }

  it('adds hour_points per whole hour, keeps the hourly phase, stops at the limit and at the end', () => {
    const account = { balance: 0, frozen: 0, last_refill_timestamp: 0 }
    expect(refillDue(account, terms, hour - 1)).toEqual({ hours: 0, points: 0, lastRefill: 0 })
    expect(refillDue(account, terms, 2 * hour + 59 * 60_000)).toEqual({ hours: 2, points: 200, lastRefill: 2 * hour })
    expect(refillDue({ ...account, balance: 950 }, terms, 3 * hour)).toEqual({ hours: 3, points: 50, lastRefill: 3 * hour })
    // Frozen points count against the limit, so settling cannot lift the balance past it.
    expect(refillDue({ ...account, balance: 500, frozen: 400 }, terms, 5 * hour).points).toBe(100)
    expect(refillDue(account, { ...terms, end_timestamp: 4 * hour + 1 }, 10 * hour)).toEqual({ hours: 4, points: 400, lastRefill: 4 * hour })
    expect(refillDue(account, terms, 10 ** 12).points).toBe(1000)
  })
})

describeEachDatabase('hourly refill and expiry', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  const points = (token: string) => ctx.call(pointsEndpoints.points, { token })
  const refillRows = (userId: string) =>
    ctx.relay.db.selectFrom('points_ledger').select(['change', 'create_timestamp']).where('user_id', '=', userId).where('type', '=', 'refilled').orderBy('id').execute()

  /** A user on a long package (so 1000 hours fit) who has spent `spent` of its 2400 points. */
  async function userWhoSpent(spent: number) {
    const code = ctx.unique('LONG').toUpperCase()
    await createPackage(ctx.relay.db, ctx.clock.now(), { code, name: 'Long', kind: 'personal', points_limit: 2400, hour_points: 100, validity_days: 365 })
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user, code)
    await spend(servicesOf(ctx), { userId: user.id, amount: spent, model: 'claude-sonnet-4-5' })
    return { user, start: ctx.clock.now() }
  }

  it('adds nothing within the first hour, 100 after one hour, 500 after five, and caps at the limit after 1000', async () => {
    const { user, start } = await userWhoSpent(2300)
    ctx.clock.advance(hour - 1)
    expect(await points(user.token)).toMatchObject({ balance: 100, last_refill_timestamp: start, next_refill_timestamp: start + hour })
    expect(await refillRows(user.id)).toEqual([])

    ctx.clock.advance(1)
    expect(await points(user.token)).toMatchObject({ balance: 200, last_refill_timestamp: start + hour, next_refill_timestamp: start + 2 * hour })

    ctx.clock.advance(5 * hour + 30 * 60_000)
    expect(await points(user.token)).toMatchObject({ balance: 700, last_refill_timestamp: start + 6 * hour })

    ctx.clock.advance(1000 * hour)
    expect(await points(user.token)).toMatchObject({ balance: 2400, points_limit: 2400, last_refill_timestamp: start + 1006 * hour })
    // One row per catch-up, dated at the hour it completes.
    expect(await refillRows(user.id)).toEqual([
      { change: 100, create_timestamp: start + hour },
      { change: 500, create_timestamp: start + 6 * hour },
      { change: 1700, create_timestamp: start + 1006 * hour },
    ])
  })

  it('adds each hour exactly once when 50 reads race, also through a second database connection', async () => {
    const { user, start } = await userWhoSpent(2000)
    ctx.clock.advance(3 * hour)
    // A second relay instance on the same database is another connection pool.
    const second = openDatabase(ctx.config.databaseUrl, { searchPath: ctx.config.databaseSchema })
    try {
      const balances = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          i % 2 === 0
            ? points(user.token).then((r) => r.balance)
            : pointsSummary(second, user.id, ctx.clock.now()).then((s) => s.balance),
        ),
      )
      expect(new Set(balances)).toEqual(new Set([700]))
    } finally {
      await second.destroy()
    }
    expect(await refillRows(user.id)).toEqual([{ change: 300, create_timestamp: start + 3 * hour }])
  })

  it('ends the package at its end timestamp: hours up to the end refill, then the rest expires', async () => {
    const user = await quickUser(ctx)
    const redeemed = await redeemFresh(ctx, user)
    const end = redeemed.end_timestamp
    await spend(servicesOf(ctx), { userId: user.id, amount: 1000, model: null })
    ctx.clock.set(end - 1)
    expect(await points(user.token)).toMatchObject({ status: 'normal', remaining_days: 1, balance: 2400 })

    ctx.clock.set(end)
    expect(await points(user.token)).toMatchObject({
      status: 'expired',
      balance: 0,
      remaining_days: 0,
      last_refill_timestamp: null,
      next_refill_timestamp: null,
      package: { code: 'PERSONAL' },
    })
    const rows = await ctx.call(pointsEndpoints.history, { token: user.token })
    expect(rows.items[0]).toMatchObject({ type: 'expired', change: -2400, balance_after: 0, create_timestamp: end })
    const events = await ctx.call(subscriptionEndpoints.history, { token: user.token })
    expect(events.items.map((e) => e.action)).toEqual(['expired', 'activated'])

    ctx.clock.advance(10 * hour)
    expect((await points(user.token)).balance).toBe(0)
    await expect(spend(servicesOf(ctx), { userId: user.id, amount: 1, model: null })).rejects.toMatchObject({ reason: 'points_insufficient' })
  })
})
