import { pointsEndpoints } from '../contract/points.ts'
import { afterEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, redeemFresh, servicesOf } from '../../tests/fixtures/points.ts'
import { RelayError } from '../http/relay-error.ts'
import { freeze, grant, settle, settleAll, spend } from './ledger.ts'

describeEachDatabase('points ledger', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  const points = (token: string) => ctx.call(pointsEndpoints.points, { token })
  const rows = (userId: string) =>
    ctx.relay.db
      .selectFrom('points_ledger')
      .select(['type', 'change', 'balance_after', 'model', 'reason'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()
  const outcome = <T>(promise: Promise<T>) =>
    promise.then(
      () => 'ok' as const,
      (error: unknown) => {
        if (error instanceof RelayError) return error.reason
        throw error
      },
    )

  async function activeUser() {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    return user
  }

  it('grants only to a package in force, beyond the limit if need be', async () => {
    const services = servicesOf(ctx)
    const nobody = await quickUser(ctx)
    expect(await grant(services, { userId: nobody.id, amount: 50, reason: 'welcome' })).toBeNull()
    const user = await activeUser()
    const entry = await grant(services, { userId: user.id, amount: 50, reason: 'welcome' })
    expect(entry).toMatchObject({ balance: 2450 })
    expect((await rows(user.id)).at(-1)).toEqual({ type: 'earned', change: 50, balance_after: 2450, model: null, reason: 'welcome' })
  })

  it('spends while the balance lasts and refuses the rest without writing anything', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    await spend(services, { userId: user.id, amount: 2000, model: 'gpt-4o-mini' })
    expect(await outcome(spend(services, { userId: user.id, amount: 401, model: 'gpt-4o-mini' }))).toBe('points_insufficient')
    await spend(services, { userId: user.id, amount: 400, model: 'gpt-4o-mini', reason: 'call' })
    expect(await points(user.token)).toMatchObject({ balance: 0, used_points: 2400 })
    expect((await rows(user.id)).map((r) => [r.type, r.change, r.balance_after])).toEqual([
      ['earned', 2400, 2400],
      ['consumed', -2000, 400],
      ['consumed', -400, 0],
    ])
    expect(await outcome(spend(services, { userId: (await quickUser(ctx)).id, amount: 1, model: null }))).toBe('points_insufficient')
  })

  it('lets exactly as many of 100 parallel spends through as the balance covers', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    const results = await Promise.all(Array.from({ length: 100 }, () => outcome(spend(services, { userId: user.id, amount: 30, model: 'claude-haiku-4-5' }))))
    expect(results.filter((r) => r === 'ok')).toHaveLength(80)
    expect(results.filter((r) => r !== 'ok').every((r) => r === 'points_insufficient')).toBe(true)
    expect(await points(user.token)).toMatchObject({ balance: 0, used_points: 2400 })
  })

  it('freezes an estimate, then settles: unfrozen in full, consumed the actual cost', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    const hold = await freeze(services, { userId: user.id, amount: 500, model: 'claude-sonnet-4-5' })
    expect(hold.balance).toBe(1900)
    expect(await points(user.token)).toMatchObject({ balance: 1900, frozen_points: 500 })
    expect(await outcome(spend(services, { userId: user.id, amount: 2000, model: null }))).toBe('points_insufficient')

    expect(await settle(services, { holdId: hold.holdId, actual: 120 })).toEqual({ charged: 120, balance: 2280 })
    expect(await points(user.token)).toMatchObject({ balance: 2280, frozen_points: 0, used_points: 120 })
    expect((await rows(user.id)).slice(-3).map((r) => [r.type, r.change, r.model])).toEqual([
      ['frozen', -500, 'claude-sonnet-4-5'],
      ['unfrozen', 500, 'claude-sonnet-4-5'],
      ['consumed', -120, 'claude-sonnet-4-5'],
    ])
    expect(await outcome(settle(services, { holdId: hold.holdId, actual: 1 }))).toBe('conflict')
  })

  it('charges a call that cost more than its estimate only up to the balance', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    await spend(services, { userId: user.id, amount: 2300, model: null })
    const hold = await freeze(services, { userId: user.id, amount: 100, model: 'claude-opus-4-1' })
    expect(await settle(services, { holdId: hold.holdId, actual: 250 })).toEqual({ charged: 100, balance: 0 })
  })

  it('settles a hold whose package was replaced meanwhile: what is left of it expires', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    const hold = await freeze(services, { userId: user.id, amount: 500, model: null })
    await redeemFresh(ctx, user)
    expect(await settle(services, { holdId: hold.holdId, actual: 200 })).toEqual({ charged: 200, balance: 0 })
    // The new package is untouched.
    expect(await points(user.token)).toMatchObject({ balance: 2400, frozen_points: 0 })
  })

  it('applies the refills due before a freeze, and freezes a short balance whole only when it holds atLeast', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    await spend(services, { userId: user.id, amount: 1000, model: null })
    ctx.clock.advance(3 * 3_600_000)
    // Three hours' refills (PostgreSQL: the one-statement freeze leaves them to the full path).
    expect((await freeze(services, { userId: user.id, amount: 500, model: null })).balance).toBe(1200)
    expect((await rows(user.id)).slice(-2).map((r) => [r.type, r.change])).toEqual([
      ['refilled', 300],
      ['frozen', -500],
    ])
    const whole = await freeze(services, { userId: user.id, amount: 5000, atLeast: 1000, model: null })
    expect(whole).toMatchObject({ amount: 1200, balance: 0 })
    expect(await outcome(freeze(services, { userId: user.id, amount: 10, atLeast: 1, model: null }))).toBe('points_insufficient')
    await settle(services, { holdId: whole.holdId, actual: 0 })
  })

  it('settles several holds at once in the order given, and refuses the group when one is not open', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    const holds = await Promise.all([100, 200, 300].map((amount) => freeze(services, { userId: user.id, amount, model: null })))
    expect(await settleAll(services, holds.map((hold, i) => ({ holdId: hold.holdId, actual: 10 * (i + 1) })))).toEqual([
      { charged: 10, balance: 1890 },
      { charged: 20, balance: 2070 },
      { charged: 30, balance: 2340 },
    ])
    const next = await freeze(services, { userId: user.id, amount: 50, model: null })
    expect(await outcome(settleAll(services, [{ holdId: next.holdId, actual: 5 }, { holdId: holds[0]!.holdId, actual: 5 }]))).toBe('conflict')
    // Nothing of the refused group was written: the open hold settles as before.
    expect(await settle(services, { holdId: next.holdId, actual: 5 })).toEqual({ charged: 5, balance: 2335 })
  })

  it('keeps 48 parallel freezes and settlements exact', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    // 48 × 50 frozen at once is exactly the balance: every freeze must fit, whatever the interleaving.
    const results = await Promise.all(
      Array.from({ length: 48 }, async () => {
        const hold = await freeze(services, { userId: user.id, amount: 50, model: null })
        return settle(services, { holdId: hold.holdId, actual: 40 })
      }),
    )
    expect(results.every((r) => r.charged === 40)).toBe(true)
    expect(await points(user.token)).toMatchObject({ balance: 480, frozen_points: 0, used_points: 1920 })
  })

  it('refuses amounts that are not positive bounded integers', async () => {
    const services = servicesOf(ctx)
    const user = await activeUser()
    for (const amount of [0, -5, 1.5, Number.NaN, 1e12]) {
      expect(() => spend(services, { userId: user.id, amount, model: null })).toThrow(RangeError)
    }
    expect(() => settle(services, { holdId: '1', actual: -1 })).toThrow(RangeError)
  })
})
