import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeGemini, type FakeGemini } from '../../tests/fixtures/fake-gemini.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, balanceOf, customer, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { serveRelay, type ServedRelay } from '../../tests/fixtures/serve-relay.ts'

// Over HTTP on loopback, as clients reach it: a base URL ending in '/' joined with '/v1/…' makes
// '//v1/…', which no in-process Request can carry (it would read 'v1' as a host).
describeEachDatabase('a base URL ending in / on every model API', (ctx) => {
  let provider: FakeProvider
  let gemini: FakeGemini
  let relay: ServedRelay

  beforeAll(async () => {
    ;[provider, gemini] = await Promise.all([startFakeProvider(), startFakeGemini()])
    relay = await serveRelay(ctx.relay)
    for (const model of ['slash-claude', 'slash-gpt', 'slash-gemini']) await priceModel(ctx, { model, kind: 'fixed', points_per_call: 1 })
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['slash-claude'] })
    await addTestProvider(ctx, { kind: 'openai', baseUrl: `${provider.url}/v1`, models: ['slash-gpt'] })
    await addTestProvider(ctx, { kind: 'gemini', baseUrl: gemini.url, models: ['slash-gemini'] })
  })
  afterAll(async () => {
    await relay?.stop()
    await Promise.all([provider?.close(), gemini?.close()])
  })
  afterEach(async () => {
    provider.reset()
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('serves //v1/… and //v1beta/… as /v1/… and /v1beta/…, charged alike', async () => {
    const user = await customer(ctx, 1000)
    const send = (path: string, init: { method?: string; headers: Record<string, string>; body?: unknown }) =>
      fetch(`${relay.url}/${path}`, {
        method: init.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      })
    const anthropic = { 'x-api-key': user.key, 'anthropic-version': '2023-06-01' }
    const openai = { authorization: `Bearer ${user.key}` }
    const ask = { max_tokens: 40, messages: [{ role: 'user', content: 'Hi' }] }
    const calls = [
      send('/v1/messages', { headers: anthropic, body: { model: 'slash-claude', ...ask } }),
      send('/v1/messages/count_tokens', { headers: anthropic, body: { model: 'slash-claude', messages: ask.messages } }),
      send('/v1/models', { method: 'GET', headers: anthropic }),
      send('/v1/chat/completions', { headers: openai, body: { model: 'slash-gpt', messages: ask.messages } }),
      send('/v1/responses', { headers: openai, body: { model: 'slash-gpt', input: 'Hi' } }),
      send('/v1/v1/chat/completions', { headers: openai, body: { model: 'slash-gpt', messages: ask.messages } }),
      send('/v1beta/models/slash-gemini:generateContent', { headers: { 'x-goog-api-key': user.key }, body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] } }),
      send('/v1beta/models', { method: 'GET', headers: { 'x-goog-api-key': user.key } }),
    ]
    const replies = await Promise.all(calls)
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200))
    await Promise.all(replies.map((r) => r.text()))
    // Six calls on record (count_tokens free), five charged their one point; the model lists are not recorded.
    await settled(ctx, user.id, 6)
    expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 995, frozen_points: 0 })
    expect(provider.received.map((r) => r.url).sort()).toEqual(['/v1/chat/completions', '/v1/chat/completions', '/v1/messages', '/v1/messages/count_tokens', '/v1/responses'])
  })
})
