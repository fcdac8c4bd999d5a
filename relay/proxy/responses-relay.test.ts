import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { answerPieces, startFakeProvider, type FakeProvider, type FakeUsage } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, balanceOf, callRelay, customer, ledgerOf, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import type { ModelCost } from '../contract/points.ts'
import { pointsForUsage } from '../points/model-costs.ts'
import { tokensOfBytes } from './usage-meter.ts'

// Whole points for small usages: 1 a token in, 0.1 a cached one, 4 a token out.
const cost: ModelCost = {
  model: 'gpt-relay-test',
  kind: 'variable',
  points_per_call: null,
  input_points_per_mtok: 1_000_000,
  output_points_per_mtok: 4_000_000,
  cache_read_points_per_mtok: 100_000,
  cache_write_points_per_mtok: null,
  description: null,
}
/** A Codex turn: most of the prompt read back from the cache, most of the output reasoning. */
const codexUsage: FakeUsage = { input_tokens: 300, cache_read_tokens: 9000, cache_write_tokens: 0, output_tokens: 250, reasoning_tokens: 200 }
const codexCharge = pointsForUsage(cost, codexUsage)

describeEachDatabase('OpenAI Responses API through the relay', (ctx) => {
  let provider: FakeProvider
  let other: FakeProvider

  beforeAll(async () => {
    ;[provider, other] = await Promise.all([startFakeProvider(), startFakeProvider()])
    await priceModel(ctx, cost)
    await priceModel(ctx, { model: 'gpt-one-point', kind: 'fixed', points_per_call: 1 })
    await priceModel(ctx, { model: 'gpt-affinity', kind: 'fixed', points_per_call: 1 })
    await addTestProvider(ctx, { kind: 'openai', baseUrl: `${provider.url}/v1`, models: ['gpt-*'] })
    // Only gpt-affinity has two providers to choose from.
    await addTestProvider(ctx, { kind: 'openai', baseUrl: `${other.url}/v1`, models: ['gpt-affinity'] })
  })
  afterAll(async () => {
    await provider?.close()
    await other?.close()
  })
  afterEach(async () => {
    provider.reset()
    await expectLedgerInvariants(ctx.relay.db)
  })

  /** What Codex sends, in short: stream always, input items, tools, reasoning, the session as cache key. */
  const codexBody = (extra: Record<string, unknown> = {}) => ({
    model: cost.model,
    instructions: 'You are Codex.',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: '狐狸 — say hi' }] }],
    tools: [{ type: 'function', name: 'shell', parameters: { type: 'object', properties: {} }, strict: false }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    stream: true,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'thread-1',
    ...extra,
  })
  const callsOf = (userId: string) => ctx.relay.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  const consumed = async (userId: string) => (await ledgerOf(ctx, userId)).filter((row) => row.type === 'consumed').map((row) => -row.change)

  it('forwards a stream to <base_url>/responses with the body unchanged, passes every byte back, and charges cached and reasoning tokens exactly', async () => {
    const user = await customer(ctx, 100_000)
    provider.queue({ kind: 'answer', usage: codexUsage })
    const body = codexBody()
    const response = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, body, headers: { accept: 'text/event-stream', 'session-id': 'thread-1', originator: 'codex_exec' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const bytes = Buffer.from(await response.arrayBuffer())
    const received = provider.received.at(-1)!
    expect(received.url).toBe('/v1/responses')
    expect(received.body).toEqual(body)
    expect(received.headers).toMatchObject({ authorization: 'Bearer fake-provider-secret-0000', 'session-id': 'thread-1', originator: 'codex_exec' })
    expect(bytes.equals(received.sent)).toBe(true)
    expect(bytes.toString('utf8')).toContain(answerPieces().join('').slice(-8))
    await settled(ctx, user.id, 1)

    expect(await consumed(user.id)).toEqual([codexCharge])
    expect((await callsOf(user.id))[0]).toMatchObject({
      api: 'responses',
      streamed: 1,
      outcome: 'completed',
      input_tokens: 300,
      cache_read_tokens: 9000,
      output_tokens: 250,
      points: codexCharge,
    })
  })

  it('answers JSON, under /v1/v1 too, and the compaction call, charged from the reported usage', async () => {
    const user = await customer(ctx, 100_000)
    provider.queue({ kind: 'answer', usage: codexUsage }, { kind: 'answer', usage: codexUsage })
    const whole = await callRelay(ctx, '/v1/v1/responses', { key: user.key, bearer: true, body: codexBody({ stream: false }) })
    expect(whole.status).toBe(200)
    const text = await whole.text()
    expect(text).toBe(provider.received.at(-1)!.sent.toString('utf8'))
    expect(JSON.parse(text)).toMatchObject({ object: 'response', status: 'completed', usage: { input_tokens: 9300, output_tokens: 250 } })
    const compact = await callRelay(ctx, '/v1/responses/compact', { key: user.key, bearer: true, body: { model: cost.model, input: [] } })
    expect(compact.status).toBe(200)
    await compact.arrayBuffer()
    expect(provider.received.at(-1)!.url).toBe('/v1/responses/compact')
    await settled(ctx, user.id, 2)
    expect(await consumed(user.id)).toEqual([codexCharge, codexCharge])
  })

  it('charges a stream the provider cuts for the input sent and the text delivered', async () => {
    const user = await customer(ctx, 100_000)
    // response.created, output_item.added and two text deltas; then the connection closes.
    provider.queue({ kind: 'cut', afterEvents: 4 })
    const body = codexBody()
    const response = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, body })
    await expect(response.text()).rejects.toThrow()
    await settled(ctx, user.id, 1)
    const [first, second] = answerPieces()
    const usage = { input_tokens: tokensOfBytes(Buffer.byteLength(JSON.stringify(body))), output_tokens: tokensOfBytes(Buffer.byteLength(first! + second!)) }
    expect(await consumed(user.id)).toEqual([pointsForUsage(cost, usage)])
    expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'cut', ...usage })
  })

  it('charges a stream the client leaves for what was delivered', async () => {
    const user = await customer(ctx, 100_000)
    provider.queue({ kind: 'hold', afterEvents: 4 })
    const body = codexBody()
    const response = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, body })
    const reader = response.body!.getReader()
    const [first, second] = answerPieces()
    const decoder = new TextDecoder()
    let seen = ''
    while (!seen.includes(JSON.stringify(second).slice(1, -1))) seen += decoder.decode((await reader.read()).value, { stream: true })
    await reader.cancel()
    expect(await provider.received.at(-1)!.done).toBe('aborted')
    await settled(ctx, user.id, 1)
    const usage = { input_tokens: tokensOfBytes(Buffer.byteLength(JSON.stringify(body))), output_tokens: tokensOfBytes(Buffer.byteLength(first! + second!)) }
    expect(await consumed(user.id)).toEqual([pointsForUsage(cost, usage)])
    expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'abandoned', ...usage })
  })

  it('charges nothing for a response that failed before any output, and passes the failure on', async () => {
    const user = await customer(ctx, 100_000)
    provider.queue({ kind: 'failed' })
    const response = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, body: codexBody() })
    const text = await response.text()
    expect(text).toBe(provider.received.at(-1)!.sent.toString('utf8'))
    expect(text).toContain('"code":"rate_limit_exceeded"')
    await settled(ctx, user.id, 1)
    expect(await consumed(user.id)).toEqual([])
    expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'completed', points: 0, input_tokens: 0, output_tokens: 0 })
    expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 100_000, frozen_points: 0 })
  })

  it('tells a wrong key so on every /v1 path, in OpenAI’s error shape, before the path is looked at', async () => {
    for (const path of ['/v1/responses', '/v1/responses/compact', '/v1/alpha/search', '/v1/nothing-here']) {
      const response = await callRelay(ctx, path, { key: 'sk-relay-wrong', bearer: true, body: codexBody() })
      expect(response.status, path).toBe(401)
      const { error } = await response.json()
      expect(error, path).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key', message: expect.stringContaining('Invalid API key') })
    }
    const user = await customer(ctx, 100)
    const unknown = await callRelay(ctx, '/v1/alpha/search', { key: user.key, bearer: true, body: {} })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.message).toContain('POST /v1/responses')
  })

  it('keeps a Codex thread on one provider among equals, by its session-id header or its prompt_cache_key', async () => {
    const user = await customer(ctx, 100_000)
    const threads = Array.from({ length: 12 }, (_, i) => `thread-${ctx.unique('t')}-${i}`)
    for (const thread of threads) {
      for (let i = 0; i < 4; i++) {
        // Alternately named by the header and by the body alone, as other Responses clients do.
        const headers: Record<string, string> = i % 2 ? { 'session-id': thread } : {}
        const response = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, headers, body: codexBody({ model: 'gpt-affinity', prompt_cache_key: thread }) })
        await response.arrayBuffer()
      }
    }
    const served = (fake: FakeProvider, thread: string) => fake.received.filter((r) => r.body.prompt_cache_key === thread).length
    for (const thread of threads) expect([served(provider, thread), served(other, thread)].sort()).toEqual([0, 4])
    // Both providers have some of the threads: the session spreads them, it does not pin them all to one.
    expect(threads.some((thread) => served(other, thread) === 4)).toBe(true)
    expect(threads.some((thread) => served(provider, thread) === 4)).toBe(true)
    await settled(ctx, user.id, 48)
  })

  it('lets exactly as many of 300 parallel streams through as the balance covers, each byte-identical', async () => {
    const user = await customer(ctx, 100)
    const replies = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const response = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, body: codexBody({ model: 'gpt-one-point' }) })
        return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }
      }),
    )
    const byStatus = new Map<number, number>()
    for (const { status } of replies) byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
    expect(Object.fromEntries(byStatus)).toEqual({ 200: 100, 429: 200 })
    const sent = new Set(provider.received.slice(-100).map((r) => r.sent.toString('hex')))
    expect(replies.filter((r) => r.status === 200).every((r) => sent.has(r.bytes.toString('hex')))).toBe(true)
    expect(JSON.parse(replies.find((r) => r.status === 429)!.bytes.toString()).error).toMatchObject({ code: 'insufficient_quota' })
    await settled(ctx, user.id, 100)
    expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 0, frozen_points: 0 })
    expect(await consumed(user.id)).toHaveLength(100)
    // 300 streams on a shared machine: seconds, not the default 20.
  }, 60_000)
})
