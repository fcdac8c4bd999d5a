import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider, type FakeUsage } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, callRelay, customer, ledgerOf, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import type { ItemisedCharge } from '../points/model-costs.ts'
import { usageEndpoints } from '../contract/usage.ts'
import { reservation } from './metering.ts'

// Sonnet 5.5's list prices at 1 point = 1 US cent: $2 / $10 per million, cache read $0.20,
// 5-minute write $2.50; 1-hour writes and searches at the defaults (2× input, $10 per 1,000).
const sonnet = { input: 200, output: 1000, read: 20, write5m: 250, write1h: 400, search: 1 }
// Sonnet 4.6's long-context tier: 2× input and 1.5× output once the prompt exceeds 200,000 tokens.
const tier = { threshold: 200_000, inputPercent: 200, outputPercent: 150 }

/** The points a usage costs at `sonnet`'s rates, written out as the provider's invoice reads. */
function due(usage: Partial<FakeUsage>, percents = { input: 100, output: 100 }): number {
  const u = { input_tokens: 120, output_tokens: 40, cache_read_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, web_search_requests: 0, ...usage }
  const inputSide = u.input_tokens * sonnet.input + u.cache_read_tokens * sonnet.read + u.cache_write_tokens * sonnet.write5m + u.cache_write_1h_tokens! * sonnet.write1h
  const dollarsInCents = (inputSide * percents.input + u.output_tokens * sonnet.output * percents.output) / 100 / 1e6
  return Math.ceil(dollarsInCents + u.web_search_requests! * sonnet.search)
}

describeEachDatabase('what providers bill: cache writes by lifetime, web searches, long-context tiers', (ctx) => {
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    const rates = { kind: 'variable' as const, input_points_per_mtok: sonnet.input, output_points_per_mtok: sonnet.output, cache_read_points_per_mtok: sonnet.read, cache_write_points_per_mtok: sonnet.write5m }
    await priceModel(ctx, { model: 'bill-sonnet', ...rates })
    await priceModel(ctx, { model: 'bill-long', ...rates, long_context_threshold: tier.threshold, long_context_input_percent: tier.inputPercent, long_context_output_percent: tier.outputPercent })
    await priceModel(ctx, { model: 'bill-gpt', ...rates })
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['bill-sonnet', 'bill-long'] })
    await addTestProvider(ctx, { kind: 'openai', baseUrl: provider.url, models: ['bill-gpt'] })
  })
  afterAll(async () => provider?.close())
  afterEach(async () => {
    provider.reset()
    await expectLedgerInvariants(ctx.relay.db)
  })

  /** One call answered with `usage`; its record once settled. */
  async function charged(usage: Partial<FakeUsage>, options: { model?: string; stream?: boolean; path?: string; extra?: Record<string, unknown> } = {}) {
    const user = await customer(ctx, 10_000)
    provider.queue({ kind: 'answer', usage })
    const path = options.path ?? '/v1/messages'
    const body = { model: options.model ?? 'bill-sonnet', max_tokens: 1000, stream: options.stream ?? false, messages: [{ role: 'user', content: 'Hi' }], ...options.extra }
    const answer = await callRelay(ctx, path, { key: user.key, body })
    expect(answer.status).toBe(200)
    await answer.text()
    await settled(ctx, user.id, 1)
    const call = await ctx.relay.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
    const consumed = (await ledgerOf(ctx, user.id)).filter((row) => row.type === 'consumed').reduce((sum, row) => sum - row.change, 0)
    // The ledger took what the record says, and the record's lines add up to it.
    expect(consumed).toBe(call.points)
    const charge = JSON.parse(call.charge!) as ItemisedCharge
    expect(charge.points).toBe(call.points)
    expect(Math.ceil(charge.lines.reduce((sum, line) => sum + line.points, 0) - 1e-9)).toBe(call.points)
    return { call, charge, user }
  }

  it('charges 1-hour cache writes at their own rate, alone, mixed with 5-minute ones, in JSON and streamed', async () => {
    for (const stream of [false, true]) {
      const alone = await charged({ cache_write_1h_tokens: 100_000 }, { stream })
      expect(alone.call.points).toBe(due({ cache_write_1h_tokens: 100_000 }))
      expect(alone.call.points).toBe(41)
      expect(alone.call).toMatchObject({ cache_write_tokens: 0, cache_write_1h_tokens: 100_000 })
      expect(alone.charge.lines.find((line) => line.item === 'cache_write_1h')).toMatchObject({ quantity: 100_000, rate: sonnet.write1h, percent: 100 })

      const mixed = await charged({ cache_write_tokens: 50_000, cache_write_1h_tokens: 50_000 }, { stream })
      expect(mixed.call.points).toBe(due({ cache_write_tokens: 50_000, cache_write_1h_tokens: 50_000 }))
      expect(mixed.charge.lines.map((line) => line.item)).toEqual(['input', 'cache_write_5m', 'cache_write_1h', 'output'])

      const fiveMinutes = await charged({ cache_write_tokens: 100_000 }, { stream })
      expect(fiveMinutes.call.points).toBe(due({ cache_write_tokens: 100_000 }))
    }
  })

  it('charges every web search of a Messages call, streamed or not', async () => {
    for (const searches of [1, 3, 30]) {
      for (const stream of [false, true]) {
        const { call, charge } = await charged({ web_search_requests: searches }, { stream })
        expect(call.points).toBe(due({ web_search_requests: searches }))
        expect(call.web_search_requests).toBe(searches)
        expect(charge.lines.at(-1)).toEqual({ item: 'web_search', quantity: searches, rate: 1, percent: 100, points: searches })
      }
    }
  })

  it('charges every web search of a Responses call (its web_search_call items), streamed or not', async () => {
    for (const searches of [1, 3, 30]) {
      for (const stream of [false, true]) {
        const user = await customer(ctx, 10_000)
        provider.queue({ kind: 'web_search', searches, usage: { input_tokens: 120, output_tokens: 40 } })
        const answer = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, body: { model: 'bill-gpt', input: 'Find the fox', stream, tools: [{ type: 'web_search' }] } })
        expect(answer.status).toBe(200)
        await answer.text()
        await settled(ctx, user.id, 1)
        const call = await ctx.relay.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
        expect([call.web_search_requests, call.points], `${searches} searches, stream ${stream}`).toEqual([searches, due({ web_search_requests: searches })])
      }
    }
  })

  it('reserves the searches a request allows: its web search tools\' max_uses, or a default without one', async () => {
    const tool = (extra: Record<string, unknown>) => ({ type: 'web_search_20250305', name: 'web_search', ...extra })
    for (const [tools, searches] of [
      [[tool({ max_uses: 30 })], 30],
      [[tool({ max_uses: 2 }), tool({ max_uses: 3 })], 5],
      [[tool({})], 10],
      [[{ name: 'get_weather', input_schema: { type: 'object' } }], 0],
    ] as const) {
      const body = { model: 'bill-sonnet', max_tokens: 1000, messages: [{ role: 'user', content: 'Hi' }], tools }
      const user = await customer(ctx, 10_000)
      const answer = await callRelay(ctx, '/v1/messages', { key: user.key, body })
      const [hold] = await ledgerOf(ctx, user.id)
      expect(hold!.type).toBe('frozen')
      const frozen = -hold!.change
      await answer.text()
      await settled(ctx, user.id, 1)
      const inputEstimate = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 4)
      const rates = { model: 'bill-sonnet', kind: 'variable' as const, points_per_call: null, input_points_per_mtok: sonnet.input, output_points_per_mtok: sonnet.output, cache_read_points_per_mtok: sonnet.read, cache_write_points_per_mtok: sonnet.write5m, description: null }
      expect(frozen).toBe(reservation(rates, inputEstimate, 1000, ctx.config.callShortfallCeilingPoints, searches).points)
      expect(frozen).toBe(Math.ceil((inputEstimate * sonnet.input + 1000 * sonnet.output) / 1e6 + searches))
    }
  })

  it('charges the long-context tier on the whole call only over the threshold, cache reads and writes counted in the prompt', async () => {
    const standard = { input: 100, output: 100 }
    const long = { input: tier.inputPercent, output: tier.outputPercent }
    const cases: Array<[Partial<FakeUsage>, typeof standard]> = [
      [{ input_tokens: 199_999 }, standard],
      [{ input_tokens: 200_000 }, standard],
      [{ input_tokens: 200_001 }, long],
      [{ input_tokens: 1000, cache_read_tokens: 199_001 }, long],
      [{ input_tokens: 1000, cache_read_tokens: 150_000, cache_write_1h_tokens: 49_000 }, standard],
      [{ input_tokens: 1000, cache_read_tokens: 150_000, cache_write_1h_tokens: 49_001 }, long],
      [{ input_tokens: 1000, cache_read_tokens: 150_000, cache_write_tokens: 25_000, cache_write_1h_tokens: 25_000, web_search_requests: 3 }, long],
    ]
    for (const [usage, percents] of cases) {
      const { call, charge } = await charged(usage, { model: 'bill-long', stream: true })
      expect(call.points).toBe(due(usage, percents))
      expect(charge.long_context).toEqual(percents === long ? { threshold: tier.threshold, input_percent: tier.inputPercent, output_percent: tier.outputPercent } : null)
    }
  })

  it('shows each call\'s itemised charge in the usage log and its CSV, unchanged by a later repricing', async () => {
    const usage = { cache_write_1h_tokens: 100_000, web_search_requests: 3 }
    const { user, charge } = await charged(usage, { stream: true })
    const logged = async () => (await ctx.call(usageEndpoints.calls, { token: user.token })).items[0]
    const csv = async () => (await ctx.request('GET', usageEndpoints.export.path, { token: user.token })).text
    const before = await logged()
    expect(before).toMatchObject({ cache_write_1h_tokens: 100_000, web_search_requests: 3, points: due(usage), charge })
    expect(await csv()).toContain(`bill-sonnet: input 120 × 200 = 0.024; cache_write_1h 100000 × 400 = 40; output 40 × 1000 = 0.04; web_search 3 × 1 = 3 → ${due(usage)}`)
    const csvBefore = await csv()

    await priceModel(ctx, { model: 'bill-sonnet', kind: 'variable', input_points_per_mtok: 999, output_points_per_mtok: 999, cache_write_1h_points_per_mtok: 1, web_search_points: 50 })
    expect(await logged()).toEqual(before)
    expect(await csv()).toBe(csvBefore)
    await priceModel(ctx, { model: 'bill-sonnet', kind: 'variable', input_points_per_mtok: sonnet.input, output_points_per_mtok: sonnet.output, cache_read_points_per_mtok: sonnet.read, cache_write_points_per_mtok: sonnet.write5m })
  })

  it('OpenAI chat completions: cached prompt tokens at the cache-read rate, streamed or not', async () => {
    for (const stream of [false, true]) {
      const usage = { input_tokens: 3000, cache_read_tokens: 7000, output_tokens: 500 }
      const { call, charge } = await charged(usage, { model: 'bill-gpt', stream, path: '/v1/chat/completions' })
      expect(call.points).toBe(due(usage))
      expect(charge.lines.map((line) => [line.item, line.quantity])).toEqual([
        ['input', 3000],
        ['cache_read', 7000],
        ['output', 500],
      ])
    }
  })
})
