import { accountEndpoints } from '../contract/accounts.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, redeemFresh, servicesOf } from '../../tests/fixtures/points.ts'
import { spend } from './ledger.ts'
import { pointsForUsage } from './model-costs.ts'

const hour = 3_600_000
const day = 24 * hour

describe('pointsForUsage', () => {
  const sonnet = {
    model: 'claude-sonnet-4-5',
    kind: 'variable' as const,
    points_per_call: null,
    input_points_per_mtok: 300,
    output_points_per_mtok: 1500,
    cache_read_points_per_mtok: 30,
    cache_write_points_per_mtok: null,
    description: null,
  }

  it('prices tokens per million, cache writes as input when unpriced, rounding up', () => {
    expect(pointsForUsage(sonnet, { input_tokens: 1_000_000, output_tokens: 0 })).toBe(300)
    expect(pointsForUsage(sonnet, { input_tokens: 2000, output_tokens: 1000, cache_read_tokens: 100_000, cache_write_tokens: 10_000 })).toBe(
      Math.ceil((2000 * 300 + 1000 * 1500 + 100_000 * 30 + 10_000 * 300) / 1e6),
    )
    expect(pointsForUsage(sonnet, { input_tokens: 1, output_tokens: 0 })).toBe(1)
    expect(pointsForUsage({ ...sonnet, kind: 'fixed', points_per_call: 7 }, { input_tokens: 10 ** 9, output_tokens: 0 })).toBe(7)
  })
})

describeEachDatabase('points calls', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  it('answers a user without a package with the defaults of docs/product.md, Constants', async () => {
    const user = await quickUser(ctx)
    expect((await ctx.call(pointsEndpoints.points, { token: user.token }))).toEqual({
      balance: 0,
      points_limit: 0,
      used_points: 0,
      frozen_points: 0,
      hour_points: 100,
      last_refill_timestamp: null,
      next_refill_timestamp: null,
      status: 'none',
      start_timestamp: null,
      end_timestamp: null,
      remaining_days: 0,
      package: null,
      team_id: null,
      forecast: { hourly_use: 0, runs_out_timestamp: null, next_refill_points: 0 },
    })
    const info = await ctx.call(accountEndpoints.info, { token: user.token })
    expect(info.points).toMatchObject({ status: 'none', hour_points: 100, validity_days: 30, package_id: null, package_kind: null })
    expect(info.subscriptions).toEqual([])
    expect((await ctx.call(pointsEndpoints.history, { token: user.token }))).toEqual({ items: [], total: 0, page: 1, pageSize: 10 })
    expect((await ctx.call(subscriptionEndpoints.history, { token: user.token }))).toEqual({ items: [], total: 0, page: 1, pageSize: 10 })
  })

  it('fills the user-info block and subscriptions from the plan in force', async () => {
    const user = await quickUser(ctx)
    const start = ctx.clock.now()
    await redeemFresh(ctx, user)
    await spend(servicesOf(ctx), { userId: user.id, amount: 700, model: 'claude-sonnet-4-5' })
    ctx.clock.advance(2 * hour + 5)
    const info = await ctx.call(accountEndpoints.info, { token: user.token })
    expect(info.points).toEqual({
      total_points: 2400,
      remaining_points: 1900,
      used_points: 700,
      total_used_points: 700,
      hour_points: 100,
      package_id: expect.any(String),
      status: 'normal',
      start_timestamp: start,
      end_timestamp: start + 30 * day,
      package_name: '个人版',
      package_code: 'PERSONAL',
      validity_days: 30,
      description: expect.any(String),
      points_limit: 2400,
      frozen_points: 0,
      last_refill_timestamp: start + 2 * hour,
      next_refill_timestamp: start + 3 * hour,
      remaining_days: 30,
      package_kind: 'personal',
      team_id: null,
      // The spending was two hours ago: no pace now.
      forecast: { hourly_use: 0, runs_out_timestamp: null, next_refill_points: 100 },
    })
    expect(info.subscriptions).toEqual([
      expect.objectContaining({ package_code: 'PERSONAL', status: 'normal', total_points: 2400, remaining_points: 1900, used_points: 700, team_id: null }),
    ])
    // Login returns the same block.
    const login = await ctx.signUp()
    expect(login.login.points).toMatchObject({ status: 'none', package_kind: null })
  })

  it('pages the points history, newest first', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const services = servicesOf(ctx)
    for (let i = 1; i <= 12; i++) await spend(services, { userId: user.id, amount: i, model: i % 2 ? 'gpt-4o' : null })
    const first = (await ctx.call(pointsEndpoints.history, { token: user.token }))
    expect(first).toMatchObject({ total: 13, page: 1, pageSize: 10 })
    expect(first.items.map((r) => r.change)).toEqual([-12, -11, -10, -9, -8, -7, -6, -5, -4, -3])
    expect(first.items[1]).toEqual({
      id: expect.any(String),
      type: 'consumed',
      change: -11,
      balance_after: 2400 - 66,
      model: 'gpt-4o',
      reason: null,
      create_timestamp: ctx.clock.now(),
      call_id: null,
    })
    const last = await ctx.call(pointsEndpoints.history, { token: user.token, query: { page: 2, pageSize: 10 } })
    expect(last.items.map((r) => [r.type, r.change])).toEqual([
      ['consumed', -2],
      ['consumed', -1],
      ['earned', 2400],
    ])
    expect((await ctx.refusal(pointsEndpoints.history, { token: user.token, query: { pageSize: 101 } })).status).toBe(400)
  })

  it('sums consumed points per UTC+8 day for the last 10 days, today last', async () => {
    // 2025-03-10 23:30 in UTC+8 is 15:30 UTC.
    ctx.clock.set(Date.UTC(2025, 2, 10, 15, 30))
    const user = await quickUser(ctx)
    const services = servicesOf(ctx)
    await redeemFresh(ctx, user)
    await spend(services, { userId: user.id, amount: 40, model: null })
    ctx.clock.advance(hour) // 00:30 on the 11th in China, still the 10th in UTC
    await spend(services, { userId: user.id, amount: 7, model: null })
    ctx.clock.advance(9 * day)

    const usage = (await ctx.call(pointsEndpoints.weeklyUsage, { token: user.token }))
    expect(usage.timezone).toBe('Asia/Shanghai')
    expect(usage.days).toHaveLength(10)
    expect(usage.days[0]).toEqual({ date: '2025-03-11', consumed_points: 7 })
    expect(usage.days.at(-1)).toEqual({ date: '2025-03-20', consumed_points: 0 })
    expect(usage.days.reduce((sum: number, d: { consumed_points: number }) => sum + d.consumed_points, 0)).toBe(7)

    ctx.clock.advance(-day)
    const dayEarlier = (await ctx.call(pointsEndpoints.weeklyUsage, { token: user.token })).days
    expect(dayEarlier.slice(0, 2)).toEqual([
      { date: '2025-03-10', consumed_points: 40 },
      { date: '2025-03-11', consumed_points: 7 },
    ])
  })

  it('lists the seeded model costs of current Claude and OpenAI models', async () => {
    const user = await quickUser(ctx)
    const items = (await ctx.call(pointsEndpoints.modelCosts, { token: user.token })).items
    const models = items.map((c) => c.model)
    expect(models).toEqual([...models].sort())
    expect(models).toEqual(expect.arrayContaining(['claude-opus-4-1', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'gpt-4o', 'gpt-4.1', 'o3-mini']))
    expect(items.find((c) => c.model === 'claude-sonnet-4-5')).toMatchObject({
      kind: 'variable',
      input_points_per_mtok: 300,
      output_points_per_mtok: 1500,
      cache_read_points_per_mtok: 30,
      cache_write_points_per_mtok: 375,
    })
    expect(items.find((c) => c.model === 'gpt-4o-mini')).toMatchObject({ kind: 'fixed', points_per_call: 1 })
  })
})
