/**
 * The reconciliation report for a seeded month: calls through the relay with known usage, the
 * hourly aggregation run, then the report must equal a list-price computation written here from
 * the providers' published prices (US cents), beside the points charged, per model and provider.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { adminOpsEndpoints } from '../contract/admin-ops.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider, type FakeUsage } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, servicesOf } from '../../tests/fixtures/points.ts'
import { addTestProvider, callRelay, customer, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { refreshOperatorStats } from './overview.ts'

/** Anthropic's published prices, US dollars per million tokens (cache reads 0.1×, 5-minute writes 1.25×, 1-hour writes 2× input), and $10 per 1,000 searches. */
const published = {
  'claude-opus-5-5': { input: 4, output: 20 },
  'claude-sonnet-5-5': { input: 2, output: 10 },
}

function listCents(model: keyof typeof published, usage: Required<FakeUsage>, calls: number): number {
  const { input, output } = published[model]
  const dollars =
    (usage.input_tokens * input + usage.cache_read_tokens * input * 0.1 + usage.cache_write_tokens * input * 1.25 + usage.cache_write_1h_tokens * input * 2 + usage.output_tokens * output) / 1e6 +
    usage.web_search_requests * 0.01
  return dollars * 100 * calls
}

const usage: Required<FakeUsage> = { input_tokens: 3000, output_tokens: 1200, cache_read_tokens: 40_000, cache_write_tokens: 8000, cache_write_1h_tokens: 12_000, web_search_requests: 2, reasoning_tokens: 0 }

describeEachDatabase('reconciliation report', (ctx) => {
  let provider: FakeProvider
  let providerId: string
  beforeAll(async () => {
    provider = await startFakeProvider()
    providerId = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['claude-*', 'house-*'] })
    // Sonnet priced twice its list price by mistake; a model of the operator's own has no list price.
    await priceModel(ctx, { model: 'claude-sonnet-5-5', kind: 'variable', input_points_per_mtok: 400, output_points_per_mtok: 2000 })
    await priceModel(ctx, { model: 'house-model', kind: 'fixed', points_per_call: 3 })
  })
  afterAll(() => provider?.close())

  it('prices a month of usage at list prices beside the points charged, per model and provider', async () => {
    const user = await customer(ctx, 1_000_000)
    const send = async (model: string, times: number) => {
      for (let i = 0; i < times; i++) {
        provider.queue({ kind: 'answer', usage })
        const answer = await callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 2000, messages: [{ role: 'user', content: 'Hi' }] } })
        expect(answer.status).toBe(200)
        await answer.text()
      }
    }
    await send('claude-opus-5-5', 3)
    await send('claude-sonnet-5-5', 2)
    await send('house-model', 1)
    await settled(ctx, user.id, 6)
    await refreshOperatorStats(servicesOf(ctx), { settleLagMs: 0 })

    const operator = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
    const month = new Date(ctx.clock.now()).toISOString().slice(0, 7)
    const report = await ctx.call(adminOpsEndpoints.reconciliation, { token: operator.token, query: { month } })
    const rows = report.rows
    const charged = async (model: string) =>
      Number((await ctx.relay.db.selectFrom('proxy_calls').select((eb) => eb.fn.sum<number>('points').as('points')).where('user_id', '=', user.id).where('model', '=', model).executeTakeFirstOrThrow()).points)
    const row = (model: string) => rows.find((item) => item.model === model)
    for (const [model, calls] of [['claude-opus-5-5', 3], ['claude-sonnet-5-5', 2]] as const) {
      expect(row(model)).toMatchObject({
        provider_id: providerId,
        provider: expect.stringContaining('anthropic · 127.0.0.1'),
        calls,
        input_tokens: usage.input_tokens * calls,
        cache_write_1h_tokens: usage.cache_write_1h_tokens * calls,
        web_search_requests: usage.web_search_requests * calls,
        points: await charged(model),
      })
      expect(row(model)!.list_cents!).toBeCloseTo(listCents(model, usage, calls), 6)
    }
    // Sonnet, priced twice its list price by mistake, shows it.
    expect(row('claude-sonnet-5-5')!.points).toBeGreaterThan(1.9 * row('claude-sonnet-5-5')!.list_cents!)
    expect(row('house-model')).toMatchObject({ calls: 1, points: 3, list_cents: null })
    expect(report.totals).toMatchObject({ calls: 6, points: (await charged('claude-opus-5-5')) + (await charged('claude-sonnet-5-5')) + 3 })

    // Another month holds none of it; a month is asked for as YYYY-MM.
    const empty = await ctx.call(adminOpsEndpoints.reconciliation, { token: operator.token, query: { month: '2001-01' } })
    expect(empty.rows).toEqual([])
    expect((await ctx.refusal(adminOpsEndpoints.reconciliation, { token: operator.token, query: { month: '2026-13' } })).status).toBe(400)
    await expectLedgerInvariants(ctx.relay.db)
  })
})
