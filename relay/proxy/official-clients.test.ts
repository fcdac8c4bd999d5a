import http from 'node:http'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { answerPieces, defaultFakeUsage, fakeProviderSecret, startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, balanceOf, customer, ledgerOf, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { serveRelay, type ServedRelay } from '../../tests/fixtures/serve-relay.ts'
import { pointsForUsage } from '../points/model-costs.ts'

// The official SDKs, unchanged, pointed at the relay served on loopback as in production.
describeEachDatabase('official clients through the relay', (ctx) => {
  let provider: FakeProvider
  let relay: ServedRelay
  const cost = { model: 'sdk-model', kind: 'variable', input_points_per_mtok: 100_000, output_points_per_mtok: 500_000 } as const
  const charge = pointsForUsage({ ...cost, points_per_call: null, cache_read_points_per_mtok: null, cache_write_points_per_mtok: null, description: null }, defaultFakeUsage)
  const text = answerPieces().join('')

  beforeAll(async () => {
    provider = await startFakeProvider()
    relay = await serveRelay(ctx.relay)
    await priceModel(ctx, cost)
    await priceModel(ctx, { model: 'sdk-fixed', kind: 'fixed', points_per_call: 7 })
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['sdk-*'] })
    await addTestProvider(ctx, { kind: 'openai', baseUrl: `${provider.url}/v1`, models: ['sdk-*'] })
  })
  afterAll(async () => {
    await relay?.stop()
    await provider?.close()
  })
  afterEach(async () => {
    provider.reset()
    await expectLedgerInvariants(ctx.relay.db)
  })

  const anthropic = (key: string, auth: 'apiKey' | 'authToken' = 'apiKey') => new Anthropic({ [auth]: key, baseURL: relay.url })
  const openai = (key: string) => new OpenAI({ apiKey: key, baseURL: `${relay.url}/v1` })
  const ask = { max_tokens: 1000, messages: [{ role: 'user' as const, content: 'Hello' }] }

  it('Anthropic SDK: a whole answer and a stream, by x-api-key and by Bearer token (Claude Code)', async () => {
    const user = await customer(ctx, 10_000)
    const message = await anthropic(user.key).messages.create({ model: 'sdk-model', ...ask })
    expect(message.content).toEqual([{ type: 'text', text }])
    expect(message.usage).toMatchObject({ input_tokens: 120, output_tokens: 40 })

    // As Claude Code calls it: ANTHROPIC_AUTH_TOKEN (a Bearer token), the beta messages, a stream.
    const stream = anthropic(user.key, 'authToken').beta.messages.stream({ model: 'sdk-model', ...ask })
    const final = await stream.finalMessage()
    expect(final.content).toEqual([{ type: 'text', text }])
    expect(final.usage).toMatchObject({ input_tokens: 120, output_tokens: 40 })

    await settled(ctx, user.id, 2)
    expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 10_000 - 2 * charge, frozen_points: 0 })
  })

  it('Anthropic SDK: refusals arrive as its own error classes, and are not retried', async () => {
    const poor = await customer(ctx, 5)
    const before = provider.received.length
    const refused = anthropic(poor.key).messages.create({ model: 'sdk-fixed', ...ask })
    await expect(refused).rejects.toBeInstanceOf(Anthropic.RateLimitError)
    await expect(refused).rejects.toMatchObject({ status: 429, message: expect.stringContaining('Not enough points: this call needs 7 points') })
    await expect(anthropic('sk-relay-0000000000000000000000000000000000000000').messages.create({ model: 'sdk-fixed', ...ask })).rejects.toBeInstanceOf(
      Anthropic.AuthenticationError,
    )
    await expect(anthropic(poor.key).messages.create({ model: 'nope', ...ask })).rejects.toBeInstanceOf(Anthropic.BadRequestError)
    expect(provider.received.length).toBe(before)
  })

  it('Anthropic SDK: abandoning a stream stops the provider and charges what was delivered', async () => {
    const user = await customer(ctx, 10_000)
    provider.queue({ kind: 'hold', afterEvents: 4 })
    const stream = anthropic(user.key).messages.stream({ model: 'sdk-model', ...ask })
    await new Promise<void>((resolve) => stream.on('text', () => resolve()))
    stream.abort()
    await expect(stream.done()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError)
    expect(await provider.received.at(-1)!.done).toBe('aborted')
    await settled(ctx, user.id, 1)
    const [call] = await ctx.relay.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', user.id).execute()
    expect(call).toMatchObject({ outcome: 'abandoned', input_tokens: 120 })
    expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -call!.points })
  })

  it('OpenAI SDK: a whole answer, a stream without usage chunk, a stream with one', async () => {
    const user = await customer(ctx, 10_000)
    const client = openai(user.key)
    const completion = await client.chat.completions.create({ model: 'sdk-model', ...ask })
    expect(completion.choices[0]!.message.content).toBe(text)

    const chunks = []
    for await (const chunk of await client.chat.completions.create({ model: 'sdk-model', ...ask, stream: true })) chunks.push(chunk)
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true)
    expect(chunks.map((chunk) => chunk.choices[0]!.delta.content ?? '').join('')).toBe(text)

    const withUsage = []
    for await (const chunk of await client.chat.completions.create({ model: 'sdk-model', ...ask, stream: true, stream_options: { include_usage: true } })) {
      withUsage.push(chunk)
    }
    expect(withUsage.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 120, completion_tokens: 40 } })

    await settled(ctx, user.id, 3)
    expect((await balanceOf(ctx, user.token)).balance).toBe(10_000 - 3 * charge)
    const refused = openai((await customer(ctx, 5)).key).chat.completions.create({ model: 'sdk-fixed', ...ask })
    await expect(refused).rejects.toBeInstanceOf(OpenAI.RateLimitError)
    await expect(refused).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' })
  })

  it("serves a base URL that ends in '/': the SDK's calls, and //v1/messages as a script joins it", async () => {
    const user = await customer(ctx, 10_000)
    const slashed = `${relay.url}/`
    const message = await new Anthropic({ apiKey: user.key, baseURL: slashed }).messages.create({ model: 'sdk-fixed', ...ask })
    expect(message.content).toEqual([{ type: 'text', text }])
    // `curl "$ANTHROPIC_BASE_URL/v1/messages"` with the base above.
    const joined = await fetch(`${slashed}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sdk-fixed', ...ask }),
    })
    expect(joined.status).toBe(200)
    expect((await joined.json()).content).toEqual([{ type: 'text', text }])
    expect(provider.received.at(-1)!.url).toBe('/v1/messages')
    await settled(ctx, user.id, 2)
    expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 10_000 - 14, frozen_points: 0 })
  })

  it('both SDKs list the models', async () => {
    const user = await customer(ctx, 100)
    const fromAnthropic = []
    for await (const model of anthropic(user.key).models.list()) fromAnthropic.push(model.id)
    expect(fromAnthropic).toEqual(['sdk-fixed', 'sdk-model'])
    const fromOpenAi = []
    for await (const model of openai(user.key).models.list()) fromOpenAi.push(model.id)
    expect(fromOpenAi).toEqual(['sdk-fixed', 'sdk-model'])
  })

  it("never lets the client's key or its hop-by-hop headers reach the provider", async () => {
    const user = await customer(ctx, 100)
    const body = JSON.stringify({ model: 'sdk-fixed', ...ask })
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${relay.url}/v1/messages?beta=true&target=http://evil.test`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': user.key,
          authorization: `Bearer ${user.key}`,
          'anthropic-version': '2023-06-01',
          'anthropic-beta': 'prompt-caching-2024-07-31',
          connection: 'keep-alive, x-hop',
          'x-hop': 'dropped',
          'keep-alive': 'timeout=5',
          te: 'trailers',
          'proxy-authorization': 'Basic c2VjcmV0',
          'x-forwarded-for': '203.0.113.9',
          cookie: 'session=abc',
          host: 'evil.test',
        },
      })
      req.on('response', (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end(body)
    })
    expect(status).toBe(200)
    const received = provider.received.at(-1)!
    expect(received.url).toBe('/v1/messages?beta=true')
    expect(received.headers.host).toBe(new URL(provider.url).host)
    expect(Object.keys(received.headers).sort()).toEqual([
      'accept-encoding',
      'anthropic-beta',
      'anthropic-version',
      'connection',
      'content-length',
      'content-type',
      'host',
      'x-api-key',
    ])
    expect(received.headers).toMatchObject({ 'x-api-key': fakeProviderSecret, 'accept-encoding': 'identity', 'anthropic-beta': 'prompt-caching-2024-07-31' })
    expect(JSON.stringify(received.headers)).not.toContain(user.key)
    await settled(ctx, user.id, 1)
  })
})
