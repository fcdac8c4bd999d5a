import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { afterEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeCodes, quickUser, redeemFresh, servicesOf } from '../../tests/fixtures/points.ts'
import { spend } from '../points/ledger.ts'
import { createPackage } from './packages.ts'
import { redeemCode } from './redeem-codes.ts'
import type { RedeemEvent } from './redeem-hooks.ts'

const day = 86_400_000

describeEachDatabase('redeem codes', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  const points = (token: string) => ctx.call(pointsEndpoints.points, { token })
  const history = async (token: string) => (await ctx.call(pointsEndpoints.history, { token, query: { pageSize: 100 } })).items
  const redeeming = (token: string, code: string) => ({ token, body: { redeem_code: code } })
  const redeem = (token: string, code: string) => ctx.call(subscriptionEndpoints.redeemCode, redeeming(token, code))
  const validate = (token: string, code: string) => ctx.call(subscriptionEndpoints.validateRedeemCode, redeeming(token, code))

  it('validates without using the code, then redeems it once: the package and its points start now', async () => {
    const user = await quickUser(ctx)
    const [code] = await makeCodes(ctx, 'PERSONAL')
    // People paste codes in lower case; the hyphens are optional.
    const typed = code!.toLowerCase().replaceAll('-', ' ')
    const checked = await validate(user.token, typed)
    expect(checked).toMatchObject({
      package: { code: 'PERSONAL', kind: 'personal', points_limit: 2400, hour_points: 100, validity_days: 30, price: 9900 },
      code_expires_timestamp: null,
      replaces_active: false,
      current: null,
    })
    expect((await points(user.token)).status).toBe('none')

    const redeemed = await redeem(user.token, typed)
    expect(redeemed).toMatchObject({
      package_code: 'PERSONAL',
      points_gained: 2400,
      start_timestamp: ctx.clock.now(),
      end_timestamp: ctx.clock.now() + 30 * day,
      replaced_previous: false,
    })
    expect(await points(user.token)).toMatchObject({
      balance: 2400,
      points_limit: 2400,
      used_points: 0,
      status: 'normal',
      remaining_days: 30,
      last_refill_timestamp: ctx.clock.now(),
      next_refill_timestamp: ctx.clock.now() + 3_600_000,
      package: { code: 'PERSONAL' },
    })
    expect(await history(user.token)).toMatchObject([{ type: 'earned', change: 2400, balance_after: 2400, reason: 'activation' }])

    for (const endpoint of [subscriptionEndpoints.redeemCode, subscriptionEndpoints.validateRedeemCode]) {
      const again = await ctx.refusal(endpoint, redeeming(user.token, code!))
      expect(again.status).toBe(422)
      expect(again.reason).toBe('redeem_code_invalid')
    }
  })

  it('refuses unknown and expired codes', async () => {
    const user = await quickUser(ctx)
    const [code] = await makeCodes(ctx, 'PERSONAL', 1, 2)
    const unknown = await ctx.refusal(subscriptionEndpoints.redeemCode, redeeming(user.token, 'ABCD-EFGH-JKMN-PQRS'))
    expect(unknown.reason).toBe('redeem_code_invalid')
    ctx.clock.advance(2 * day)
    const expired = await ctx.refusal(subscriptionEndpoints.redeemCode, redeeming(user.token, code!))
    expect(expired.status).toBe(422)
    expect(expired.reason).toBe('redeem_code_invalid')
    expect((await points(user.token)).status).toBe('none')
  })

  it('replaces an active package at once: its points expire, the new one starts full', async () => {
    const user = await quickUser(ctx)
    const pro = ctx.unique('PRO').toUpperCase()
    await createPackage(ctx.relay.db, ctx.clock.now(), { code: pro, name: 'Pro', kind: 'personal', points_limit: 5000, hour_points: 200, validity_days: 60 })
    const first = await redeemFresh(ctx, user)
    await spend(servicesOf(ctx), { userId: user.id, amount: 400, model: 'claude-sonnet-4-5' })
    ctx.clock.advance(day)

    const [code] = await makeCodes(ctx, pro)
    const checked = await validate(user.token, code!)
    expect(checked).toMatchObject({
      replaces_active: true,
      current: { package: { code: 'PERSONAL' }, remaining_points: 2400, remaining_days: 29 },
    })
    const redeemed = await redeem(user.token, code!)
    expect(redeemed).toMatchObject({ package_code: pro, points_gained: 5000, replaced_previous: true })
    expect(await points(user.token)).toMatchObject({ balance: 5000, points_limit: 5000, used_points: 0, remaining_days: 60, package: { code: pro } })

    const rows = await history(user.token)
    expect(rows.slice(0, 2)).toMatchObject([
      { type: 'earned', change: 5000, balance_after: 5000, reason: 'activation' },
      { type: 'expired', change: -2400, balance_after: 0, reason: 'replaced' },
    ])
    const old = await ctx.relay.db.selectFrom('subscriptions').selectAll().where('id', '=', first.subscription_id).executeTakeFirstOrThrow()
    expect(old).toMatchObject({ status: 'expired', ended_timestamp: ctx.clock.now() })

    const events = await ctx.call(subscriptionEndpoints.history, { token: user.token })
    expect(events.items.map((e) => [e.action, e.current])).toEqual([
      ['upgraded', true],
      ['cancelled', false],
      ['activated', false],
    ])
  })

  it('renews when the same package is redeemed again', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    ctx.clock.advance(10 * day)
    expect((await redeemFresh(ctx, user)).replaced_previous).toBe(true)
    const events = await ctx.call(subscriptionEndpoints.history, { token: user.token })
    expect(events.items.map((e) => e.action)).toEqual(['renewed', 'cancelled', 'activated'])
    expect((await points(user.token)).remaining_days).toBe(30)
  })

  it('runs the redeem hooks inside the transaction, telling a first paid purchase from later ones', async () => {
    const user = await quickUser(ctx)
    const services = servicesOf(ctx)
    const seen: Array<RedeemEvent & { codeUsed: boolean }> = []
    services.redeemHooks.push(async (trx, event) => {
      // Inside the transaction the code is already claimed.
      const code = await trx.selectFrom('redeem_codes').select('used_by').where('id', '=', event.redeemCodeId).executeTakeFirstOrThrow()
      seen.push({ ...event, codeUsed: code.used_by === user.id })
    })
    const free = ctx.unique('FREE').toUpperCase()
    const freePkg = await createPackage(ctx.relay.db, ctx.clock.now(), { code: free, name: 'Trial', kind: 'personal', points_limit: 100 })
    const [a] = await makeCodes(ctx, free)
    const [b, c] = await makeCodes(ctx, 'PERSONAL', 2)
    await redeemCode(services, { userId: user.id, clientIp: '192.0.2.1' }, a!.replaceAll('-', ''))
    await redeemCode(services, { userId: user.id, clientIp: '192.0.2.1' }, b!.replaceAll('-', ''))
    await redeemCode(services, { userId: user.id, clientIp: '192.0.2.1' }, c!.replaceAll('-', ''))
    expect(seen.map((e) => [e.packageId === freePkg.id, e.packagePrice, e.isFirstPaidPurchase, e.codeUsed, e.userId])).toEqual([
      [true, 0, false, true, user.id],
      [false, 9900, true, true, user.id],
      [false, 9900, false, true, user.id],
    ])
  })

  it('rolls the redemption back when a hook fails: the code stays unused', async () => {
    const user = await quickUser(ctx)
    const services = servicesOf(ctx)
    services.redeemHooks.push(async () => {
      throw new Error('reward failed')
    })
    const [code] = await makeCodes(ctx, 'PERSONAL')
    await expect(redeemCode(services, { userId: user.id, clientIp: '192.0.2.1' }, code!.replaceAll('-', ''))).rejects.toThrow('reward failed')
    expect((await points(user.token)).status).toBe('none')
    await redeem(user.token, code!)
  })

  it('gives exactly one success to 100 parallel redemptions of one code by one user', async () => {
    const user = await quickUser(ctx)
    const [code] = await makeCodes(ctx, 'PERSONAL')
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => ctx.outcome(subscriptionEndpoints.redeemCode, redeeming(user.token, code!))),
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    const reasons = new Set(replies.filter((r) => r.status !== 200).map((r) => r.error?.reason))
    expect([...reasons].every((reason) => reason === 'redeem_code_invalid' || reason === 'rate_limited')).toBe(true)
    expect(await points(user.token)).toMatchObject({ balance: 2400, status: 'normal' })
    const subscriptions = await ctx.relay.db.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).execute()
    expect(subscriptions).toHaveLength(1)
  })

  it('gives exactly one success to 100 parallel redemptions of one code by 100 users', async () => {
    const users = await Promise.all(Array.from({ length: 100 }, () => quickUser(ctx)))
    const [code] = await makeCodes(ctx, 'PERSONAL')
    const replies = await Promise.all(
      users.map((user) => ctx.outcome(subscriptionEndpoints.redeemCode, { ...redeeming(user.token, code!), ip: ctx.uniqueIp() })),
    )
    const winners = replies.flatMap((r, i) => (r.status === 200 ? [users[i]!] : []))
    expect(winners).toHaveLength(1)
    expect(replies.filter((r) => r.status !== 200).every((r) => r.error?.reason === 'redeem_code_invalid')).toBe(true)
    const subscriptions = await ctx.relay.db
      .selectFrom('subscriptions')
      .select('user_id')
      .where('user_id', 'in', users.map((u) => u.id))
      .execute()
    expect(subscriptions).toEqual([{ user_id: winners[0]!.id }])
  })

  it('counts code guesses per address too: accounts made at one address share one allowance', async () => {
    const users = await Promise.all(Array.from({ length: 11 }, () => quickUser(ctx)))
    const ip = ctx.uniqueIp()
    const guess = async (token: string, from = ip) =>
      (await ctx.refusal(subscriptionEndpoints.validateRedeemCode, { ...redeeming(token, 'ABCDEFGHJKMNPQRS'), ip: from })).reason
    const reasons: Array<string | undefined> = []
    for (const user of users) for (let i = 0; i < 28; i += 1) reasons.push(await guess(user.token))
    // 308 guesses, each account under its own 30: the address's 300 reached the code check.
    expect(reasons.filter((reason) => reason === 'redeem_code_invalid')).toHaveLength(300)
    expect(reasons.filter((reason) => reason === 'rate_limited')).toHaveLength(8)
    expect(ctx.logs.filter((line) => line.includes('rate limit reached') && line.includes('redeem-code-ip'))).toHaveLength(1)
    // Another address is not affected.
    expect(await guess(users[0]!.token, ctx.uniqueIp())).toBe('redeem_code_invalid')
  })
})
