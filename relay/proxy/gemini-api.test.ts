import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { defaultGeminiUsage, geminiSignature, startFakeGemini, type FakeGemini, type GeminiUsage } from '../../tests/fixtures/fake-gemini.ts'
import { fakeProviderSecret } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, balanceOf, callRelay, customer, ledgerOf, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { servicesOf } from '../../tests/fixtures/points.ts'
import { testProviderAsOperator } from './provider-operator.ts'
import { SseSplitter } from './sse.ts'
import { pointsForUsage } from '../points/model-costs.ts'
import { tokensOfBytes } from './usage-meter.ts'

// Large rates, cache reads a tenth of input: the fake's small usage costs whole points.
const cost = {
  model: 'gem-model',
  kind: 'variable',
  points_per_call: null,
  input_points_per_mtok: 100_000,
  output_points_per_mtok: 400_000,
  cache_read_points_per_mtok: 10_000,
  cache_write_points_per_mtok: null,
  description: null,
} as const

/** What a call reporting `usage` costs: cached prompt tokens at the cache rate, thoughts as output. */
function charge(usage: GeminiUsage): number {
  return pointsForUsage(cost, { input_tokens: usage.prompt - usage.cached, cache_read_tokens: usage.cached, output_tokens: usage.candidates + usage.thoughts })
}

const request = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], generationConfig: { maxOutputTokens: 1000 } }

describeEachDatabase('Gemini API', (ctx) => {
  let gemini: FakeGemini

  beforeAll(async () => {
    gemini = await startFakeGemini()
    await priceModel(ctx, cost)
    await priceModel(ctx, { ...cost, model: 'gem-other' })
    await addTestProvider(ctx, { kind: 'gemini', baseUrl: gemini.url, models: ['gem-*'] })
  })
  afterAll(async () => {
    await gemini?.close()
  })
  afterEach(async () => {
    await expectLedgerInvariants(ctx.relay.db)
  })

  const callsOf = (userId: string) => ctx.relay.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  const consumed = async (userId: string) => (await ledgerOf(ctx, userId)).filter((row) => row.type === 'consumed').map((row) => -row.change)

  it('passes a stream through byte for byte, split events and multi-byte text alike, and charges the last chunk’s usage exactly', async () => {
    const user = await customer(ctx, 100_000)
    const response = await callRelay(ctx, '/v1beta/models/gem-model:streamGenerateContent?alt=sse', {
      headers: { 'x-goog-api-key': user.key, 'x-gemini-api-privileged-user-id': 'install-1' },
      body: request,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const bytes = Buffer.from(await response.arrayBuffer())
    const received = gemini.received.at(-1)!
    expect(bytes.equals(received.sent)).toBe(true)
    expect(bytes.toString('utf8')).toContain('🦊')
    // Forwarded to the provider's path with alt=sse, its own key, never the client's.
    expect(received.url).toBe('/v1beta/models/gem-model:streamGenerateContent?alt=sse')
    expect(received.headers['x-goog-api-key']).toBe(fakeProviderSecret)
    expect(JSON.stringify(received.headers)).not.toContain(user.key)
    await settled(ctx, user.id, 1)

    expect(await consumed(user.id)).toEqual([charge(defaultGeminiUsage)])
    expect(await callsOf(user.id)).toMatchObject([
      { api: 'gemini', model: 'gem-model', streamed: 1, outcome: 'completed', input_tokens: 400, cache_read_tokens: 800, output_tokens: 65 },
    ])
  })

  it('answers generateContent as JSON, keeps the thoughtSignature and functionCall parts intact, and takes the key from ?key=', async () => {
    const user = await customer(ctx, 100_000)
    const usage = { prompt: 3000, cached: 0, candidates: 12, thoughts: 300 }
    gemini.queue({ kind: 'function_call', name: 'read_file', args: { file_path: 'notes/说明.txt' }, usage })
    const response = await callRelay(ctx, `/v1beta/models/gem-model:generateContent?key=${user.key}`, { body: request })
    expect(response.status).toBe(200)
    const text = await response.text()
    const received = gemini.received.at(-1)!
    expect(text).toBe(received.sent.toString('utf8'))
    expect(received.url).toBe('/v1beta/models/gem-model:generateContent')
    expect(JSON.parse(text).candidates[0].content.parts[1]).toEqual({
      functionCall: { name: 'read_file', args: { file_path: 'notes/说明.txt' } },
      thoughtSignature: geminiSignature,
    })
    await settled(ctx, user.id, 1)
    expect(await consumed(user.id)).toEqual([charge(usage)])
    expect(await callsOf(user.id)).toMatchObject([{ api: 'gemini', streamed: 0, input_tokens: 3000, output_tokens: 312 }])
  })

  it('reads a streamGenerateContent without alt=sse (one JSON array) for its last chunk’s usage', async () => {
    const user = await customer(ctx, 100_000)
    const response = await callRelay(ctx, '/v1beta/models/gem-model:streamGenerateContent', { headers: { authorization: `Bearer ${user.key}` }, body: request })
    expect(response.status).toBe(200)
    expect(Array.isArray(await response.json())).toBe(true)
    await settled(ctx, user.id, 1)
    expect(await consumed(user.id)).toEqual([charge(defaultGeminiUsage)])
  })

  it('charges a stream the provider cut for what was delivered', async () => {
    const user = await customer(ctx, 100_000)
    gemini.queue({ kind: 'cut', afterEvents: 3 })
    const response = await callRelay(ctx, '/v1beta/models/gem-model:streamGenerateContent?alt=sse', { headers: { 'x-goog-api-key': user.key }, body: request })
    expect(response.status).toBe(200)
    await expect(response.arrayBuffer()).rejects.toThrow()
    await settled(ctx, user.id, 1)
    // Delivered: the thought and two pieces of text, each chunk reporting the prompt so far.
    const events = new SseSplitter().push(gemini.received.at(-1)!.sent)
    expect(events).toHaveLength(3)
    const parts = events.flatMap((event) => JSON.parse(event.data).candidates[0].content.parts as Array<{ text: string }>)
    const delivered = tokensOfBytes(parts.reduce((sum, part) => sum + Buffer.byteLength(part.text), 0))
    const expected = pointsForUsage(cost, { input_tokens: 400, cache_read_tokens: 800, output_tokens: delivered })
    expect(await consumed(user.id)).toEqual([expected])
    expect(await callsOf(user.id)).toMatchObject([{ outcome: 'cut', output_tokens: delivered }])
  })

  it('counts tokens for free', async () => {
    const user = await customer(ctx, 100)
    const response = await callRelay(ctx, '/v1beta/models/gem-model:countTokens', { headers: { 'x-goog-api-key': user.key }, body: request })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ totalTokens: defaultGeminiUsage.prompt })
    expect(await ledgerOf(ctx, user.id)).toEqual([])
    expect((await balanceOf(ctx, user.token)).balance).toBe(100)
  })

  it('lists the models a key may use, in Google’s format', async () => {
    const user = await customer(ctx, 100)
    const all = await callRelay(ctx, '/v1beta/models', { method: 'GET', headers: { 'x-goog-api-key': user.key } })
    expect(all.status).toBe(200)
    const names = ((await all.json()) as { models: Array<{ name: string }> }).models.map((m) => m.name)
    expect(names).toEqual(expect.arrayContaining(['models/gem-model', 'models/gem-other']))
    expect(names.every((name) => name.startsWith('models/gem') || name.startsWith('models/gemini-'))).toBe(true)

    const limits = { enabled: true, expires_timestamp: null, points_quota: null, daily_points_quota: null, allowed_models: ['gem-model'], rpm_limit: null, concurrency_limit: null }
    await ctx.call(apiKeyEndpoints.limits, { params: { id: user.keyId }, token: user.token, body: limits })
    const listed = await callRelay(ctx, '/v1beta/models', { method: 'GET', headers: { 'x-goog-api-key': user.key } })
    expect(await listed.json()).toEqual({ models: [expect.objectContaining({ name: 'models/gem-model' })] })
    // The key's controls hold on this API as on /v1.
    const refused = await callRelay(ctx, '/v1beta/models/gem-other:generateContent', { headers: { 'x-goog-api-key': user.key }, body: request })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } })
  })

  it('tests a gemini provider for the console with one generateContent of one output token', async () => {
    const id = (await ctx.relay.db.selectFrom('proxy_providers').select('id').where('kind', '=', 'gemini').executeTakeFirstOrThrow()).id
    const before = gemini.received.length
    const tested = await testProviderAsOperator(servicesOf(ctx), { kind: 'cli', name: 'test' }, { id, model: 'gem-model' })
    expect(tested).toMatchObject({ ok: true, status: 200, model: 'gem-model', error: null })
    const [sent] = gemini.received.slice(before)
    expect(sent!.url).toBe('/v1beta/models/gem-model:generateContent')
    expect(sent!.headers['x-goog-api-key']).toBe(fakeProviderSecret)
    expect(sent!.body.generationConfig).toEqual({ maxOutputTokens: 1 })
  })

  it('refuses in Google’s JSON error shape: a wrong key (before the path), an unknown path, an unpriced model', async () => {
    const user = await customer(ctx, 100)
    const expectGoogleError = async (response: Response, code: number, status: string, message: RegExp) => {
      expect(response.status).toBe(code)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(await response.json()).toEqual({ error: { code, message: expect.stringMatching(message), status } })
    }
    const wrongKey = { 'x-goog-api-key': 'sk-not-a-key-0000000000000000' }
    await expectGoogleError(await callRelay(ctx, '/v1beta/models/gem-model:streamGenerateContent?alt=sse', { headers: wrongKey, body: request }), 401, 'UNAUTHENTICATED', /API key/)
    await expectGoogleError(await callRelay(ctx, '/v1beta/no/such/path', { headers: wrongKey, body: request }), 401, 'UNAUTHENTICATED', /API key/)
    await expectGoogleError(await callRelay(ctx, '/v1beta/models', { method: 'GET' }), 401, 'UNAUTHENTICATED', /API key/)
    const key = { 'x-goog-api-key': user.key }
    await expectGoogleError(await callRelay(ctx, '/v1beta/no/such/path', { headers: key, body: request }), 404, 'NOT_FOUND', /GOOGLE_GEMINI_BASE_URL/)
    await expectGoogleError(await callRelay(ctx, '/v1beta/models/gem-model:embedContent', { headers: key, body: request }), 404, 'NOT_FOUND', /no POST/)
    await expectGoogleError(await callRelay(ctx, '/v1beta/models/gem-model:generateContent', { method: 'GET', headers: key }), 404, 'NOT_FOUND', /no GET/)
    await expectGoogleError(await callRelay(ctx, '/v1beta/models/unpriced-model:generateContent', { headers: key, body: request }), 404, 'NOT_FOUND', /no price/)
    await expectGoogleError(await callRelay(ctx, '/v1beta/models/gem-model:generateContent', { headers: key, body: { generationConfig: { maxOutputTokens: -1 } } }), 400, 'INVALID_ARGUMENT', /maxOutputTokens/)
    expect(await ledgerOf(ctx, user.id)).toEqual([])
  })

  it('charges calls made at once each exactly, the bytes of each its own answer', async () => {
    const user = await customer(ctx, 1_000_000)
    const count = 12
    let open!: () => void
    gemini.gate = new Promise<void>((resolve) => (open = resolve))
    const before = gemini.received.length
    const replies = Array.from({ length: count }, (_, i) =>
      callRelay(ctx, `/v1beta/models/gem-model:${i % 2 ? 'generateContent' : 'streamGenerateContent?alt=sse'}`, { headers: { 'x-goog-api-key': user.key }, body: request }),
    )
    await expect.poll(() => gemini.received.length - before, { timeout: 10_000 }).toBe(count)
    open()
    gemini.gate = null
    const bodies = await Promise.all(
      replies.map(async (sending) => {
        const reply = await sending
        return { status: reply.status, bytes: Buffer.from(await reply.arrayBuffer()) }
      }),
    )
    expect(bodies.map((b) => b.status)).toEqual(Array(count).fill(200))
    const sent = new Set(gemini.received.slice(before).map((r) => r.sent.toString('base64')))
    for (const body of bodies) expect(sent.has(body.bytes.toString('base64'))).toBe(true)
    await settled(ctx, user.id, count)
    expect(await consumed(user.id)).toEqual(Array(count).fill(charge(defaultGeminiUsage)))
    expect((await balanceOf(ctx, user.token)).balance).toBe(1_000_000 - count * charge(defaultGeminiUsage))
  })
})
