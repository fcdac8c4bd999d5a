import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { codeFlowTokens, deviceDecision, devicePoll, registerClient, startDevice } from '../../tests/fixtures/oauth.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, callRelay, customer, ledgerOf, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { oauthEndpoints } from '../contract/oauth.ts'
import { pointsEndpoints, type ModelCost } from '../contract/points.ts'
import { PriceTable, pointsForUsage } from '../points/model-costs.ts'
import { reservation, reservedOutputTokens } from './metering.ts'

const rates = (model: string, input: number, output = input): ModelCost => ({
  model,
  kind: 'variable',
  points_per_call: null,
  input_points_per_mtok: input,
  output_points_per_mtok: output,
  cache_read_points_per_mtok: null,
  cache_write_points_per_mtok: null,
  description: null,
})

describe('PriceTable', () => {
  const table = new PriceTable([
    rates('*', 1),
    rates('claude-*', 2),
    rates('claude-opus-*', 3),
    rates('claude-opus-4-*', 4),
    rates('claude-opus-4-1', 5),
    rates('*-preview', 6),
  ])
  const inputRate = (model: string) => table.find(model)?.cost.input_points_per_mtok

  it('prices the exact id first, then its undated alias, then the most specific pattern, then the default', () => {
    expect(inputRate('claude-opus-4-1')).toBe(5)
    expect(inputRate('claude-opus-4-1-20250805')).toBe(5)
    expect(inputRate('claude-opus-4-8')).toBe(4)
    expect(inputRate('claude-opus-5-5')).toBe(3)
    expect(inputRate('claude-sonnet-5-5')).toBe(2)
    expect(inputRate('gpt-5')).toBe(1)
    // Longer literal text wins: "claude-opus-" (12) over "-preview" (8).
    expect(inputRate('claude-opus-6-preview')).toBe(3)
    expect(table.find('claude-opus-5-5')?.by).toBe('claude-opus-*')
    expect(inputRate('CLAUDE-OPUS-4-1')).toBe(5)
  })

  it('refuses what nothing prices when there is no default', () => {
    const noDefault = new PriceTable([rates('claude-opus-*', 3)])
    expect(noDefault.find('claude-sonnet-5-5')).toBeNull()
    expect(noDefault.find('claude-opus')).toBeNull()
  })
})

describe('pointsForUsage with a long-context tier', () => {
  // Haiku 5.5 as seeded: 5 times every rate once the prompt exceeds 100,000 tokens.
  const haiku: ModelCost = {
    ...rates('claude-haiku-5-5', 10, 50),
    cache_read_points_per_mtok: 1,
    cache_write_points_per_mtok: 13,
    long_context_threshold: 100_000,
    long_context_input_percent: 500,
    long_context_output_percent: 500,
  }

  it('charges the whole call at the tier once input, cache reads and writes together exceed the threshold', () => {
    expect(pointsForUsage(haiku, { input_tokens: 100_000, output_tokens: 100_000 })).toBe(Math.ceil((100_000 * 10 + 100_000 * 50) / 1e6))
    const long = { input_tokens: 1000, cache_read_tokens: 99_000, cache_write_tokens: 1, output_tokens: 100_000 }
    expect(pointsForUsage(haiku, long)).toBe(Math.ceil((5 * (1000 * 10 + 99_000 * 1 + 1 * 13) + 5 * 100_000 * 50) / 1e6))
    const sonnet4: ModelCost = { ...rates('claude-sonnet-4-5', 300, 1500), long_context_threshold: 200_000, long_context_input_percent: 200, long_context_output_percent: 150 }
    expect(pointsForUsage(sonnet4, { input_tokens: 300_000, output_tokens: 10_000 })).toBe(Math.ceil((2 * 300_000 * 300 + 1.5 * 10_000 * 1500) / 1e6))
  })
})

describe('reservation', () => {
  const opus = { ...rates('claude-opus-5-5', 400, 2000) }

  it('reserves the input estimate and a bounded share of max_tokens, needing only a point to start while the worst case is within the ceiling', () => {
    // Claude Code's request: ~12,000 input tokens, max_tokens 128,000.
    const likely = Math.ceil((12_000 * 400 + reservedOutputTokens * 2000) / 1e6)
    expect(reservation(opus, 12_000, 128_000, 300)).toEqual({ points: likely, atLeast: 1 })
    // Worst case 261 points: beyond a 100-point ceiling the call needs the rest frozen.
    const worst = Math.ceil((12_000 * 400 + 128_000 * 2000) / 1e6)
    expect(reservation(opus, 12_000, 128_000, 100)).toEqual({ points: worst - 100, atLeast: worst - 100 })
    // Ceiling 0: the whole bound, as before.
    expect(reservation(opus, 12_000, 128_000, 0)).toEqual({ points: worst, atLeast: worst })
    // A small bound is reserved whole.
    expect(reservation(opus, 100, 1000, 300).points).toBe(Math.ceil((100 * 400 + 1000 * 2000) / 1e6))
  })
})

describeEachDatabase('pricing, reservation and credentials of the /v1 API', (ctx) => {
  let provider: FakeProvider
  // 1 point per 1,000 input tokens, 1 per 500 output tokens: Claude Code's 128k bound could cost 256.
  const model = 'resv-model'
  const cost = { ...rates('resv-*', 1000, 2000) }
  const claudeLike = (extra: Record<string, unknown> = {}) => ({ model, max_tokens: 128_000, stream: true, messages: [{ role: 'user', content: 'Hello' }], ...extra })

  beforeAll(async () => {
    provider = await startFakeProvider()
    await priceModel(ctx, { model: 'resv-*', kind: 'variable', input_points_per_mtok: 1000, output_points_per_mtok: 2000 })
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['resv-*'] })
  })
  afterAll(async () => provider?.close())
  afterEach(async () => {
    provider.reset()
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('prices a model by a pattern, freezes a bounded share of max_tokens, and on a short balance takes what is there and records the shortfall', async () => {
    const user = await customer(ctx, 20)
    // 1,000 in and 11,000 out: 23 points, more than the 9 frozen and more than the balance.
    provider.behaviour = { kind: 'answer', usage: { input_tokens: 1000, output_tokens: 11_000 } }
    const body = claudeLike()
    const first = await callRelay(ctx, '/v1/messages', { key: user.key, body })
    expect(first.status).toBe(200)
    const frozen = -(await ledgerOf(ctx, user.id)).find((row) => row.type === 'frozen')!.change
    await first.text()
    await settled(ctx, user.id, 1)
    // Frozen: the likely cost, input and a bounded share of the 128k bound, never its 256 points.
    const inputTokens = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 4)
    expect(frozen).toBe(Math.ceil((inputTokens * 1000 + reservedOutputTokens * 2000) / 1e6))
    expect(reservation(cost, inputTokens, 128_000, ctx.config.callShortfallCeilingPoints)).toEqual({ points: frozen, atLeast: 1 })
    const [call] = await ctx.relay.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', user.id).execute()
    // 23 points of usage on a balance of 20: the 20 are taken, 3 are the shortfall; the balance stops at 0.
    expect(call).toMatchObject({ model, points: 20, shortfall_points: 3, outcome: 'completed' })
    const summary = await ctx.call(pointsEndpoints.points, { token: user.token })
    expect(summary).toMatchObject({ balance: 0, frozen_points: 0 })
    const refused = await callRelay(ctx, '/v1/messages', { key: user.key, body: claudeLike() })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('x-should-retry')).toBe('false')
  })

  it('freezes a balance smaller than the likely cost whole, and refuses a call whose worst case exceeds balance plus the ceiling', async () => {
    const user = await customer(ctx, 3)
    provider.behaviour = { kind: 'answer', usage: { input_tokens: 100, output_tokens: 100 } }
    const small = await callRelay(ctx, '/v1/messages', { key: user.key, body: claudeLike() })
    expect(small.status).toBe(200)
    expect((await ledgerOf(ctx, user.id))[0]).toMatchObject({ type: 'frozen', change: -3 })
    await small.text()
    await settled(ctx, user.id, 1)
    expect((await ledgerOf(ctx, user.id)).map((row) => [row.type, row.change])).toEqual([
      ['frozen', -3],
      ['unfrozen', 3],
      ['consumed', -1],
    ])
    // 3,000,000 output tokens could cost 6,000 points: far more than the balance and the 300-point ceiling.
    const greedy = await callRelay(ctx, '/v1/messages', { key: user.key, body: claudeLike({ max_tokens: 3_000_000 }) })
    expect(greedy.status).toBe(429)
    expect((await greedy.json()).error.message).toMatch(/more than your package holds \(3\)\. Ask for fewer output tokens/)
  })

  it('tells clients which refusals a retry cannot fix, and serves a base URL pasted with /v1', async () => {
    const user = await customer(ctx, 100)
    const cases: Array<[string, Record<string, unknown>, string | undefined, number]> = [
      ['/v1/messages', claudeLike(), 'sk-relay-0000000000000000000000000000000000000000', 401],
      ['/v1/messages', claudeLike({ model: 'unpriced-model' }), user.key, 400],
      ['/v1/chat/completions', { model: 'unpriced-model', messages: [] }, user.key, 404],
      ['/v1/messages', { max_tokens: 5 }, user.key, 400],
    ]
    for (const [path, body, key, status] of cases) {
      const refused = await callRelay(ctx, path, { key, body })
      expect(refused.status).toBe(status)
      expect(refused.headers.get('x-should-retry')).toBe('false')
    }
    // No provider for a priced model: named, with the operator's fix, not retried.
    await priceModel(ctx, { model: 'lonely-model', kind: 'fixed', points_per_call: 1 })
    const lonely = await callRelay(ctx, '/v1/messages', { key: user.key, body: claudeLike({ model: 'lonely-model' }) })
    expect(lonely.status).toBe(503)
    expect(lonely.headers.get('x-should-retry')).toBe('false')
    expect((await lonely.json()).error.message).toContain('No provider of this relay serves lonely-model')
    // Provider failures keep the clients' retries, paced.
    provider.queue({ kind: 'fail', status: 500 })
    const failed = await callRelay(ctx, '/v1/messages', { key: user.key, body: claudeLike({ stream: false }) })
    expect(failed.status).toBe(502)
    expect(failed.headers.get('x-should-retry')).toBeNull()
    expect(failed.headers.get('retry-after')).toBe('5')

    const doubled = await callRelay(ctx, '/v1/v1/messages?beta=true', { key: user.key, body: claudeLike({ stream: false }) })
    expect(doubled.status).toBe(200)
    expect(provider.received.at(-1)!.url).toBe('/v1/messages?beta=true')
    // On record: the failed call (nothing charged), the answered one, and the three refusals of a
    // model without a price or a provider; a body without a model names no call.
    await settled(ctx, user.id, 2, 3)
    const reasons = await ctx.relay.db.selectFrom('proxy_calls').select(['model', 'refusal', 'status']).where('user_id', '=', user.id).where('refusal', 'is not', null).orderBy('id').execute()
    expect(reasons.map(({ model, refusal, status }) => [model, refusal, status]).sort()).toEqual(
      [
        ['lonely-model', 'no_provider', 503],
        ['unpriced-model', 'unknown_model', 400],
        ['unpriced-model', 'unknown_model', 404],
      ].sort(),
    )
  })

  it('takes OAuth tokens granted api (device flow and code flow) as their user; refuses other tokens', async () => {
    const { login } = await ctx.signUp()
    const owner = await customer(ctx, 100)
    const client = await registerClient(ctx, { name: 'Relay CLI' })
    const device = await startDevice(ctx, client, ['api'])
    await ctx.call(oauthEndpoints.authorize, deviceDecision(owner.token, device.device_code))
    const deviceTokens = await ctx.call(oauthEndpoints.token, devicePoll(client, device.device_secret))
    const codeTokens = await codeFlowTokens(ctx, owner.token, client, 'profile api')
    const profileOnly = await codeFlowTokens(ctx, owner.token, client, 'profile')

    for (const token of [deviceTokens.access_token, codeTokens.access_token]) {
      const answered = await callRelay(ctx, '/v1/messages', { key: token, bearer: true, body: claudeLike({ stream: false, max_tokens: 100 }) })
      expect(answered.status).toBe(200)
      const usage = await ctx.call(apiKeyEndpoints.usage, { token })
      expect(usage).toMatchObject({ key: null, client_id: client.clientId })
    }
    await settled(ctx, owner.id, 2)
    const calls = await ctx.relay.db.selectFrom('proxy_calls').select(['key_id', 'client_id', 'points']).where('user_id', '=', owner.id).execute()
    expect(calls.map((c) => [c.key_id, c.client_id])).toEqual([
      [null, client.clientId],
      [null, client.clientId],
    ])
    expect((await ledgerOf(ctx, owner.id)).filter((row) => row.type === 'consumed')).toHaveLength(2)

    const scoped = await callRelay(ctx, '/v1/messages', { key: profileOnly.access_token, bearer: true, body: claudeLike() })
    expect(scoped.status).toBe(403)
    expect(scoped.headers.get('x-should-retry')).toBe('false')
    expect((await scoped.json()).error.message).toContain('not granted the api scope')
    const scopedUsage = await ctx.refusal(apiKeyEndpoints.usage, { token: profileOnly.access_token })
    expect(scopedUsage.status).toBe(403)
    expect(scopedUsage.details).toEqual({ reason: 'insufficient_scope', required_scope: 'api' })
    // A portal sign-in token is no API credential, whatever it may do in the portal.
    const portal = await callRelay(ctx, '/v1/messages', { key: login.access_token, bearer: true, body: claudeLike() })
    expect(portal.status).toBe(401)
  })
})
