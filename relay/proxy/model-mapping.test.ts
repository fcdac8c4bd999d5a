/**
 * A provider's model mapping: a requested name sent upstream under another — in the body for the
 * Anthropic and OpenAI APIs, in the path for Gemini's — while the call is routed, priced, charged
 * and logged under the name it asked for, with the upstream name beside it in the call record.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { modelMapListSchema } from '../contract/admin-ops.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeGemini, type FakeGemini } from '../../tests/fixtures/fake-gemini.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { addTestProvider, callRelay, customer, ledgerOf, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { upstreamModelOf } from './model-mapping.ts'

describe('model mapping', () => {
  const mapping = JSON.stringify(modelMapListSchema.parse('claude-opus-4-8=claude-opus-4-8-20261015, claude-*=anthropic/claude-*-latest, gpt-5=gpt-5.1'))

  it('applies the first entry that matches, carrying what a * matched', () => {
    expect(upstreamModelOf(mapping, 'claude-opus-4-8')).toBe('claude-opus-4-8-20261015')
    expect(upstreamModelOf(mapping, 'claude-sonnet-5')).toBe('anthropic/claude-sonnet-5-latest')
    expect(upstreamModelOf(mapping, 'GPT-5')).toBe('gpt-5.1')
    expect(upstreamModelOf(mapping, 'gpt-5-mini')).toBe('gpt-5-mini')
    expect(upstreamModelOf(null, 'claude-opus-4-8')).toBe('claude-opus-4-8')
  })

  it('refuses entries that cannot be applied', () => {
    for (const bad of ['claude-opus', 'a=b=c', '=b', 'a=', 'a*b*=c', 'claude=anthropic/*', 'a*=b*c*', 'bad name=x']) {
      expect(modelMapListSchema.safeParse(bad).success, bad).toBe(false)
    }
    expect(modelMapListSchema.parse('')).toEqual([])
  })
})

describeEachDatabase('model mapping through the relay', (ctx) => {
  let provider: FakeProvider
  let gemini: FakeGemini

  beforeAll(async () => {
    provider = await startFakeProvider()
    gemini = await startFakeGemini()
    // Requested names are priced; an upstream name's own price must not be what is charged.
    await priceModel(ctx, { model: 'claude-opus-4-8', kind: 'fixed', points_per_call: 7 })
    await priceModel(ctx, { model: 'claude-opus-4-8-20261015', kind: 'fixed', points_per_call: 100 })
    await priceModel(ctx, { model: 'gpt-x-mini', kind: 'fixed', points_per_call: 3 })
    await priceModel(ctx, { model: 'gem-a', kind: 'fixed', points_per_call: 2 })
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['claude-*'], modelMap: [{ from: 'claude-opus-4-8', to: 'claude-opus-4-8-20261015' }] })
    await addTestProvider(ctx, { kind: 'openai', baseUrl: provider.url, models: ['gpt-*'], modelMap: [{ from: 'gpt-x-*', to: 'vendor/gpt-x-*' }] })
    await addTestProvider(ctx, { kind: 'gemini', baseUrl: gemini.url, models: ['gem-*'], modelMap: [{ from: 'gem-a', to: 'gem-a-001' }] })
  })
  afterEach(() => provider.reset())
  afterAll(async () => {
    await provider?.close()
    await gemini?.close()
  })

  const callsOf = (userId: string) =>
    ctx.relay.db.selectFrom('proxy_calls').select(['model', 'upstream_model', 'points', 'outcome']).where('user_id', '=', userId).orderBy('id').execute()

  it('sends a mapped model upstream under its mapped name and charges it under the requested one', async () => {
    const user = await customer(ctx, 1000)
    const answer = await callRelay(ctx, '/v1/messages', { key: user.key, body: { model: 'claude-opus-4-8', max_tokens: 40, stream: true, messages: [{ role: 'user', content: 'Hi' }] } })
    expect(answer.status).toBe(200)
    await answer.text()
    expect(provider.received.at(-1)!.body).toMatchObject({ model: 'claude-opus-4-8-20261015', stream: true, messages: [{ role: 'user', content: 'Hi' }] })

    const chat = await callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body: { model: 'gpt-x-mini', messages: [{ role: 'user', content: 'Hi' }] } })
    expect(chat.status).toBe(200)
    await chat.text()
    expect(provider.received.at(-1)!.body.model).toBe('vendor/gpt-x-mini')

    const google = await callRelay(ctx, '/v1beta/models/gem-a:generateContent', { headers: { 'x-goog-api-key': user.key }, body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] } })
    expect(google.status).toBe(200)
    await google.text()
    expect(gemini.received.at(-1)!.url).toBe('/v1beta/models/gem-a-001:generateContent')

    await settled(ctx, user.id, 3)
    expect(await callsOf(user.id)).toEqual([
      { model: 'claude-opus-4-8', upstream_model: 'claude-opus-4-8-20261015', points: 7, outcome: 'completed' },
      { model: 'gpt-x-mini', upstream_model: 'vendor/gpt-x-mini', points: 3, outcome: 'completed' },
      { model: 'gem-a', upstream_model: 'gem-a-001', points: 2, outcome: 'completed' },
    ])
    expect((await ledgerOf(ctx, user.id)).filter((row) => row.type === 'consumed').map((row) => -row.change)).toEqual([7, 3, 2])
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('sends an unmapped model unchanged, byte for byte, and records no upstream name', async () => {
    const user = await customer(ctx, 1000)
    const body = '{"model":"claude-opus-4-8-20261015","max_tokens":40,"messages":[{"role":"user","content":"Hi"}]}'
    const answer = await ctx.relay.fetch(
      new Request('http://relay.test/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': user.key }, body }),
      { clientIp: '192.0.2.7' },
    )
    expect(answer.status).toBe(200)
    await answer.text()
    expect(JSON.stringify(provider.received.at(-1)!.body)).toBe(body)
    await settled(ctx, user.id, 1)
    expect(await callsOf(user.id)).toEqual([{ model: 'claude-opus-4-8-20261015', upstream_model: null, points: 100, outcome: 'completed' }])
  })

  it('is set and cleared by the operator CLI, and audited', async () => {
    const list = await runOperatorCli(ctx, 'provider', 'list')
    const id = list.stdout.split('\n').find((line) => line.includes(' openai '))!.split(/\s+/)[0]!
    const set = await runOperatorCli(ctx, 'provider', 'set', id, '--map', 'gpt-x-*=vendor/gpt-x-*,gpt-y=gpt-y-2')
    expect(set.code).toBe(0)
    expect(set.stdout).toContain('mapping gpt-x-*=vendor/gpt-x-*, gpt-y=gpt-y-2')
    const bad = await runOperatorCli(ctx, 'provider', 'set', id, '--map', 'gpt-y')
    expect(bad.code).not.toBe(0)
    const audit = await ctx.relay.db.selectFrom('audit_log').select(['action', 'after']).where('action', '=', 'provider.update').orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(JSON.parse(audit.after!).model_map).toEqual([
      { from: 'gpt-x-*', to: 'vendor/gpt-x-*' },
      { from: 'gpt-y', to: 'gpt-y-2' },
    ])
    expect((await runOperatorCli(ctx, 'provider', 'set', id, '--map', 'gpt-x-*=vendor/gpt-x-*')).code).toBe(0)
  })
})
