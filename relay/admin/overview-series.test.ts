import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { adminEndpoints } from '../contract/admin.ts'
import { adminOpsEndpoints, type AdminOverviewSeries, type OverviewPeriod } from '../contract/admin-ops.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { dayOf, dayStart, hourMs } from '../contract/days.ts'
import { refreshOperatorStats } from './overview.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { addTestProvider, callRelay, customer, priceModel, settled } from '../../tests/fixtures/proxy.ts'

describeEachDatabase('operator overview over time', (ctx) => {
  let provider: FakeProvider
  let providerId: string

  beforeAll(async () => {
    provider = await startFakeProvider()
    providerId = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['series-*'] })
    await priceModel(ctx, { model: 'series-fixed', kind: 'fixed', points_per_call: 3 })
    await priceModel(ctx, { model: 'series-tokens', kind: 'variable', input_points_per_mtok: 10_000, output_points_per_mtok: 50_000 })
  })
  afterEach(() => expectLedgerInvariants(ctx.relay.db))
  afterAll(() => provider?.close())

  async function admin(): Promise<PointsUser> {
    const user = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', user.id).execute()
    return user
  }

  it('spreads the calls, failures, points and tokens of a seeded history over hours and days exactly as the call log and the ledger hold them', async () => {
    const operator = await admin()
    const user = await customer(ctx, 1_000_000)
    const made = { forwarded: 0, refused: 0 }
    const send = async (model: string) => {
      const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] } })
      await response.text()
      made[model === 'series-unpriced' ? 'refused' : 'forwarded'] += 1
      // Recorded and settled before the clock moves on, so each call's rows are in its own hour.
      await settled(ctx, user.id, made.forwarded, made.refused)
    }
    // Three UTC+8 days: calls at a few hours of each, a failure, and a model no price covers (refused by the relay, no provider).
    const first = dayOf(ctx.clock.now()) + 1
    const plan: Array<[day: number, hour: number, model: string]> = [
      [0, 1, 'series-fixed'],
      [0, 1, 'series-tokens'],
      [0, 9, 'series-fixed'],
      [1, 3, 'series-tokens'],
      [1, 23, 'series-fixed'],
      [2, 2, 'series-fixed'],
      [2, 2, 'series-unpriced'],
      [2, 5, 'series-tokens'],
    ]
    for (const [day, hour, model] of plan) {
      ctx.clock.set(dayStart(first + day) + hour * hourMs + 60_000)
      if (day === 2 && hour === 5) provider.queue({ kind: 'fail', status: 500 })
      await send(model)
    }
    ctx.clock.set(dayStart(first + 2) + 6 * hourMs + 30_000)
    await refreshOperatorStats(servicesOf(ctx), { settleLagMs: 0 })

    const calls = await ctx.relay.db.selectFrom('proxy_calls').selectAll().execute()
    const consumed = await ctx.relay.db.selectFrom('points_ledger').select(['change', 'create_timestamp']).where('type', '=', 'consumed').execute()
    expect(calls).toHaveLength(plan.length)
    const series = (period: OverviewPeriod, filter: { model?: string; provider_id?: string } = {}) =>
      ctx.call(adminOpsEndpoints.overviewSeries, { token: operator.token, query: { period, ...filter } })
    /** The figures of the calls and ledger rows in each bucket, as the series should show them. */
    const expected = (reply: AdminOverviewSeries, of: (call: (typeof calls)[number]) => boolean = () => true) => {
      const startOf = (ms: number) => (reply.bucket === 'hour' ? ms - (ms % hourMs) : dayStart(dayOf(ms)))
      return reply.buckets.map(({ start }) => {
        const inBucket = calls.filter((c) => of(c) && Number(c.create_timestamp) >= reply.from_timestamp && startOf(Number(c.create_timestamp)) === start)
        const answered = inBucket.filter((c) => c.refusal === null)
        return {
          start,
          calls: answered.length,
          failures: answered.filter((c) => c.outcome === 'failed').length,
          relay_refused: inBucket.length - answered.length,
          points: inBucket.reduce((sum, c) => sum + Number(c.points), 0),
          input_tokens: inBucket.reduce((sum, c) => sum + Number(c.input_tokens), 0),
          output_tokens: inBucket.reduce((sum, c) => sum + Number(c.output_tokens), 0),
        }
      })
    }

    const month = await series('30d')
    expect(month.bucket).toBe('day')
    expect(month.buckets).toHaveLength(31)
    expect(month.buckets).toEqual(expected(month))
    // Each day's points are what the ledger consumed that day.
    for (const day of [0, 1, 2]) {
      const bucket = month.buckets.find((b) => b.start === dayStart(first + day))!
      const ledger = consumed.filter((row) => dayOf(Number(row.create_timestamp)) === first + day).reduce((sum, row) => sum - Number(row.change), 0)
      expect(bucket.points).toBe(ledger)
      expect(bucket.calls + bucket.relay_refused).toBe(plan.filter(([d]) => d === day).length)
    }
    expect(month.buckets.find((b) => b.start === dayStart(first + 2))).toMatchObject({ failures: 1, relay_refused: 1 })

    const day = await series('24h')
    expect(day.bucket).toBe('hour')
    expect(day.buckets).toHaveLength(24)
    expect(day.buckets).toEqual(expected(day))
    // The last 24 hours hold the last day's calls and the previous evening's.
    expect(day.buckets.reduce((sum, b) => sum + b.calls + b.relay_refused, 0)).toBe(4)

    // The buckets add up to the overview's figures of the same period.
    for (const period of ['24h', '7d', '30d'] as const) {
      const [overview, spread] = await Promise.all([ctx.call(adminOpsEndpoints.overview, { token: operator.token, query: { period } }), series(period)])
      for (const figure of ['calls', 'failures', 'relay_refused', 'points', 'input_tokens', 'output_tokens'] as const) {
        expect(spread.buckets.reduce((sum, b) => sum + b[figure], 0), `${period} ${figure}`).toBe(overview.totals[figure])
      }
    }

    // One model; one provider (the relay's refusal reached none).
    const tokens = await series('30d', { model: 'series-tokens' })
    expect(tokens.buckets).toEqual(expected(tokens, (c) => c.model === 'series-tokens'))
    expect(tokens.buckets.reduce((sum, b) => sum + b.calls, 0)).toBe(3)
    const served = await series('30d', { provider_id: providerId })
    expect(served.buckets).toEqual(expected(served, (c) => String(c.provider_id) === providerId))
    expect(served.buckets.reduce((sum, b) => sum + b.relay_refused, 0)).toBe(0)

    // The user's page in the console charts what their own dashboard does: the ledger's days.
    const page = await ctx.call(adminEndpoints.user, { token: operator.token, params: { id: user.id } })
    expect(page.usage).toEqual(await ctx.call(pointsEndpoints.weeklyUsage, { token: user.token }))
    for (const day of [0, 1, 2]) {
      const ledger = consumed.filter((row) => dayOf(Number(row.create_timestamp)) === first + day).reduce((sum, row) => sum - Number(row.change), 0)
      expect(page.usage.days.find((d) => d.date === new Date((first + day) * 86_400_000).toISOString().slice(0, 10))?.consumed_points).toBe(ledger)
    }
  })

  it('refuses an unknown period, and anyone but an operator', async () => {
    const operator = await admin()
    expect((await ctx.refusal(adminOpsEndpoints.overviewSeries, { token: operator.token, query: { period: '1y' as OverviewPeriod } })).status).toBe(400)
    const user = await quickUser(ctx)
    expect((await ctx.refusal(adminOpsEndpoints.overviewSeries, { token: user.token })).status).toBe(404)
  })
})
