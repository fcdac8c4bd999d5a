import { newId } from '../db/ids.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import type { PartInput } from '../contract/endpoint.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { usageEndpoints } from '../contract/usage.ts'
import { recordCall, type CallRecord } from '../proxy/call-log.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, callRelay, customer, priceModel, settled, type Customer } from '../../tests/fixtures/proxy.ts'

type UsageCallsQuery = PartInput<typeof usageEndpoints.calls, 'query'>

describeEachDatabase('usage log', (ctx) => {
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['*'] })
    await priceModel(ctx, { model: 'log-a', kind: 'fixed', points_per_call: 2 })
    await priceModel(ctx, { model: 'log-b', kind: 'variable', input_points_per_mtok: 1_000_000, output_points_per_mtok: 1_000_000 })
  })
  afterAll(() => provider?.close())

  const calls = (token: string, query: UsageCallsQuery = {}) => ctx.call(usageEndpoints.calls, { token, query })
  /** A call recorded as the relay records one: an answered call of `log-a` unless told otherwise. */
  const record = (user: Customer, call: Partial<CallRecord> & Pick<CallRecord, 'startedAt'>) =>
    recordCall(ctx.relay.db, {
      id: newId(),
      userId: user.id,
      keyId: user.keyId,
      clientId: null,
      providerId: null,
      api: 'anthropic',
      model: 'log-a',
      streamed: false,
      outcome: 'completed',
      status: 200,
      usage: { input_tokens: 1, output_tokens: 1 },
      points: 0,
      shortfall: 0,
      clientIp: '192.0.2.1',
      durationMs: 10,
      relayMs: 2,
      firstByteMs: 5,
      ...call,
    })
  const message = (key: string, model: string) => callRelay(ctx, '/v1/messages', { key, body: { model, max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] } })

  it('lists each call once with its key, tokens, points, timings and outcome, filtered and paged by keyset', async () => {
    const user = await customer(ctx, 10_000)
    const stranger = await customer(ctx, 10_000)
    const second = await ctx.call(apiKeyEndpoints.create, { token: user.token, body: { name: 'ci' } })
    await ctx.call(apiKeyEndpoints.limits, {
      params: { id: second.id },
      token: user.token,
      body: { enabled: true, expires_timestamp: null, points_quota: null, daily_points_quota: null, allowed_models: ['log-a'], rpm_limit: null, concurrency_limit: null },
    })
    const start = ctx.clock.now()
    expect((await message(user.key, 'log-a')).status).toBe(200)
    ctx.clock.advance(1000)
    expect((await message(user.key, 'log-b')).status).toBe(200)
    ctx.clock.advance(1000)
    expect((await message(second.key, 'log-b')).status).toBe(403)
    ctx.clock.advance(1000)
    provider.queue({ kind: 'fail', status: 500 })
    expect((await message(second.key, 'log-a')).status).toBe(502)
    ctx.clock.advance(1000)
    expect((await message(stranger.key, 'log-a')).status).toBe(200)
    await settled(ctx, user.id, 3, 1)
    await settled(ctx, stranger.id, 1)

    const all = await calls(user.token)
    expect(all.next_cursor).toBeNull()
    const items = all.items
    expect(items.map((c) => [c.key_name, c.model, c.outcome, c.status, c.points])).toEqual([
      ['ci', 'log-a', 'failed', 502, 0],
      ['ci', 'log-b', 'refused', 403, 0],
      ['cli', 'log-b', 'answered', 200, 160],
      ['cli', 'log-a', 'answered', 200, 2],
    ])
    expect(items[1]).toMatchObject({ refusal: 'model_not_allowed', first_byte_ms: null, input_tokens: 0 })
    expect(items[2]).toMatchObject({ input_tokens: 120, output_tokens: 40, cache_read_tokens: 0, cache_write_tokens: 0, api: 'anthropic', streamed: false, refusal: null })
    expect(items[2]!.first_byte_ms).toBeGreaterThanOrEqual(0)
    expect(items[2]!.duration_ms).toBeGreaterThanOrEqual(items[2]!.first_byte_ms!)
    expect(items[3]!.create_timestamp).toBe(start)

    const pick = async (query: UsageCallsQuery) => (await calls(user.token, query)).items.map((c) => c.id)
    expect(await pick({ key_id: second.id })).toEqual([items[0]!.id, items[1]!.id])
    expect(await pick({ model: 'log-b' })).toEqual([items[1]!.id, items[2]!.id])
    expect(await pick({ outcome: 'answered' })).toEqual([items[2]!.id, items[3]!.id])
    expect(await pick({ outcome: 'refused', key_id: second.id })).toEqual([items[1]!.id])
    expect(await pick({ from: start + 1000, to: start + 3000 })).toEqual([items[1]!.id, items[2]!.id])
    // Another user's key filters to nothing, never to their calls.
    expect(await pick({ key_id: stranger.keyId })).toEqual([])

    // Keyset pages: every call once, in order, however the pages fall.
    const paged: string[] = []
    let cursor: string | null = null
    do {
      const reply = await calls(user.token, { pageSize: 3, ...(cursor ? { cursor } : {}) })
      paged.push(...reply.items.map((c) => c.id))
      cursor = reply.next_cursor
    } while (cursor)
    expect(paged).toEqual(items.map((c) => c.id))

    // Raw: malformed queries, one of a type the call does not declare.
    for (const bad of [{ outcome: 'cut' }, { pageSize: 101 }, { cursor: 'x' }, { key_id: '-1' }] as Array<Record<string, string | number>>) {
      expect((await ctx.request('GET', usageEndpoints.calls.path, { token: user.token, query: bad })).status, JSON.stringify(bad)).toBe(400)
    }
    expect((await ctx.refusal(usageEndpoints.calls)).status).toBe(401)
    await expectLedgerInvariants(ctx.relay.db)
  })

  it("shows each call in the points history as one line of its net charge, linked to the call's detail and its rows", async () => {
    const user = await customer(ctx, 10_000)
    const other = await customer(ctx, 10_000)
    expect((await message(user.key, 'log-b')).status).toBe(200)
    await settled(ctx, user.id, 1)
    expect((await message(user.key, 'log-a')).status).toBe(200)
    await settled(ctx, user.id, 2)
    const ledger = await ctx.relay.db.selectFrom('points_ledger').select(['type', 'change', 'hold_id']).where('user_id', '=', user.id).orderBy('id').execute()
    // Activation, then each call's hold: three rows for the variable call, three for the fixed one (docs/decisions/072-how-a-call-is-charged.md).
    expect(ledger.map((row) => row.type)).toEqual(['earned', 'frozen', 'unfrozen', 'consumed', 'frozen', 'unfrozen', 'consumed'])

    const history = await ctx.call(pointsEndpoints.history, { token: user.token })
    expect(history.total).toBe(3)
    const [fixed, variable, activation] = history.items
    expect(fixed).toMatchObject({ type: 'consumed', change: -2, model: 'log-a', balance_after: 10_000 - 162 })
    expect(variable).toMatchObject({ type: 'consumed', change: -160, model: 'log-b', balance_after: 10_000 - 160 })
    expect(activation).toMatchObject({ type: 'earned', call_id: null })
    expect(variable!.call_id).toMatch(/^\d+$/)
    expect(fixed!.call_id).toMatch(/^\d+$/)
    expect(fixed!.call_id).not.toBe(variable!.call_id)
    const variableCall = (token: string) => ({ params: { id: variable!.call_id! }, token })

    const detail = await ctx.call(usageEndpoints.call, variableCall(user.token))
    expect(detail.call).toMatchObject({ id: variable!.call_id, model: 'log-b', outcome: 'answered', points: 160 })
    expect(detail.entries.map((e) => [e.type, e.change])).toEqual([
      ['frozen', ledger[1]!.change],
      ['unfrozen', -ledger[1]!.change],
      ['consumed', -160],
    ])
    // Another user's call is a 404, never its data.
    const refused = await ctx.refusal(usageEndpoints.call, variableCall(other.token))
    expect(refused.status).toBe(404)
    // Paged: the pages hold lines, not rows.
    const second = await ctx.call(pointsEndpoints.history, { token: user.token, query: { page: 2, pageSize: 2 } })
    expect(second.items.map((item) => item.type)).toEqual(['earned'])
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('exports the filtered range as CSV, a page at a time, in the order of the log', async () => {
    const user = await customer(ctx, 100)
    // More rows than one page of the export, recorded as the relay records calls.
    const base = ctx.clock.now()
    for (let i = 0; i < 1203; i++) {
      await record(user, { model: i % 3 === 0 ? 'csv-x' : 'csv-y', usage: { input_tokens: i, output_tokens: 1 }, points: 1, startedAt: base + Math.floor(i / 2) })
    }
    const reply = await ctx.request('GET', usageEndpoints.export.path, { token: user.token, query: { model: 'csv-x' } })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(reply.headers.get('content-disposition')).toMatch(/^attachment; filename="usage-\d{4}-\d{2}-\d{2}\.csv"$/)
    const lines = reply.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n')
    expect(lines[0]).toBe('time_utc,request_id,key,model,api,outcome,status,refusal,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,cache_write_1h_tokens,web_search_requests,points,shortfall_points,duration_ms,first_byte_ms,charge')
    expect(lines).toHaveLength(1 + 401)
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z,\d+,cli,csv-x,anthropic,answered,200,,1200,1,0,0,0,0,1,0,10,5,$/)
    // Newest first: input tokens were counted up with the time.
    const inputs = lines.slice(1).map((line) => Number(line.split(',')[8]))
    expect(inputs).toEqual([...inputs].sort((a, b) => b - a))
    expect(new Set(lines.slice(1).map((line) => line.split(',')[1])).size).toBe(401)

    const everything = await ctx.request('GET', usageEndpoints.export.path, { token: user.token })
    expect(everything.text.trimEnd().split('\r\n')).toHaveLength(1 + 1203)
  })

  it('filters by "failed", two stored outcomes read apart, as one newest-first list across pages and in the CSV', async () => {
    const user = await customer(ctx, 100)
    const base = ctx.clock.now()
    const outcomes = ['failed', 'completed', 'cut', 'refused', 'cut', 'abandoned', 'failed', 'completed'] as const
    for (let i = 0; i < 40; i++) {
      // Pairs of calls in one millisecond: the id orders them.
      await record(user, { outcome: outcomes[i % outcomes.length]!, status: 502, usage: null, firstByteMs: null, startedAt: base + Math.floor(i / 2) })
    }
    const all = (await calls(user.token, { pageSize: 100 })).items
    expect(all).toHaveLength(40)
    const failed = all.filter((c) => c.outcome === 'failed').map((c) => c.id)
    expect(failed).toHaveLength(20)
    for (const pageSize of [1, 3, 7, 20]) {
      const paged: string[] = []
      let cursor: string | null = null
      do {
        const reply = await calls(user.token, { outcome: 'failed', pageSize, ...(cursor ? { cursor } : {}) })
        paged.push(...reply.items.map((c) => c.id))
        cursor = reply.next_cursor
      } while (cursor)
      expect(paged, `pages of ${pageSize}`).toEqual(failed)
    }
    const csv = (await ctx.request('GET', usageEndpoints.export.path, { token: user.token, query: { outcome: 'failed' } })).text
    expect(csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n').slice(1).map((line) => line.split(',')[1])).toEqual(failed)
    expect((await calls(user.token, { outcome: 'abandoned' })).items.map((c) => c.id)).toEqual(all.filter((c) => c.outcome === 'abandoned').map((c) => c.id))
  })

  it('keeps a key name that could be a formula inert in the CSV', async () => {
    const user = await customer(ctx, 100)
    const key = await ctx.call(apiKeyEndpoints.create, { token: user.token, body: { name: '=HYPERLINK("x"),1' } })
    await message(key.key, 'log-a')
    await settled(ctx, user.id, 1)
    const csv = (await ctx.request('GET', usageEndpoints.export.path, { token: user.token })).text
    expect(csv.split('\r\n')[1]).toContain(`,"'=HYPERLINK(""x""),1",log-a,anthropic,answered,`)
    await expectLedgerInvariants(ctx.relay.db)
  })
})
