/**
 * The operators' call log (docs/console.md, "Calls"): every answer under /v1 and /v1beta names
 * its request id, in a header and in a refusal's text; the call is recorded under it, refusals
 * before any provider included, and found by it in the console and in its owner's usage log;
 * every filter and the CSV agree with the whole log; refusals are recorded up to their key's
 * minute's share.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { adminEndpoints } from '../contract/admin.ts'
import type { AdminCall } from '../contract/admin-calls.ts'
import type { PartInput } from '../contract/endpoint.ts'
import { usageEndpoints } from '../contract/usage.ts'
import { refusalsRecordedPerMinute } from '../proxy/refusal-budget.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, type PointsUser } from '../../tests/fixtures/points.ts'
import { addTestProvider, callRelay, customer, priceModel, settled, withRequestId, type Customer } from '../../tests/fixtures/proxy.ts'

describeEachDatabase('call log', (ctx) => {
  let provider: FakeProvider
  let providerId: string
  let operator: PointsUser

  beforeAll(async () => {
    provider = await startFakeProvider()
    providerId = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['calls-*'] })
    await priceModel(ctx, { model: 'calls-a', kind: 'fixed', points_per_call: 2 })
    await priceModel(ctx, { model: 'calls-b', kind: 'variable', input_points_per_mtok: 1_000_000, output_points_per_mtok: 1_000_000 })
    await priceModel(ctx, { model: 'unserved', kind: 'fixed', points_per_call: 1 })
    operator = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
  })
  afterAll(() => provider?.close())
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  const message = (user: Customer, model: string, path = '/v1/messages') => callRelay(ctx, path, { key: user.key, body: { model, max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] } })
  type CallsQuery = PartInput<typeof adminEndpoints.calls, 'query'>
  const calls = (query: CallsQuery) => ctx.call(adminEndpoints.calls, { token: operator.token, query })
  const ids = (items: AdminCall[]) => items.map((call) => call.id)
  /** Every page of a filter, walked by its cursor. */
  async function walk(query: CallsQuery, pageSize: number): Promise<AdminCall[]> {
    const seen: AdminCall[] = []
    let cursor: string | null | undefined
    do {
      const reply = await calls({ ...query, pageSize, ...(cursor ? { cursor } : {}) })
      seen.push(...reply.items)
      cursor = reply.next_cursor
    } while (cursor)
    return seen
  }

  it("records a refused call under the request id its answer names, and shows it to the operator and, with its reason, to its owner", async () => {
    const user = await customer(ctx, 100)
    const refused = await message(user, 'no-such-model')
    expect(refused.status).toBe(400)
    const requestId = refused.headers.get('x-relay-request-id')!
    expect((await refused.json()).error.message).toBe(
      withRequestId(refused, 'The model no-such-model has no price on this relay, so it cannot be used here: pick one listed by GET /v1/models (Claude Code: --model or ANTHROPIC_MODEL), or ask the operator to price it (model-cost set).'),
    )
    const answered = await message(user, 'calls-a')
    expect(answered.status).toBe(200)
    // An answer passed on from the provider carries an id of its own too.
    const answeredId = answered.headers.get('x-relay-request-id')!
    expect(answeredId).toMatch(/^\d+$/)
    expect(answeredId).not.toBe(requestId)
    await settled(ctx, user.id, 1, 1)

    const found = await calls({ request_id: requestId })
    expect(found).toEqual({
      items: [expect.objectContaining({ id: requestId, user_id: user.id, username: user.username, key_id: user.keyId, model: 'no-such-model', outcome: 'refused', status: 400, refusal: 'unknown_model', provider_id: null, provider: null, points: 0 })],
      next_cursor: null,
    })
    const detail = await ctx.call(adminEndpoints.call, { params: { id: answeredId }, token: operator.token })
    expect(detail.call).toMatchObject({ id: answeredId, outcome: 'answered', provider_id: providerId, provider: `anthropic · ${new URL(provider.url).host}`, points: 2 })
    expect(detail.call.charge).toMatchObject({ points: 2 })
    expect(detail.entries.map((entry) => entry.type)).toEqual(['frozen', 'unfrozen', 'consumed'])
    expect((await ctx.refusal(adminEndpoints.call, { params: { id: '1' }, token: operator.token })).status).toBe(404)

    // The owner's log has the same call under the same id, with its reason.
    const own = await ctx.call(usageEndpoints.call, { params: { id: requestId }, token: user.token })
    expect(own.call).toMatchObject({ id: requestId, outcome: 'refused', refusal: 'unknown_model' })
    // Nobody else's.
    expect((await ctx.refusal(usageEndpoints.call, { params: { id: requestId }, token: operator.token })).status).toBe(404)
  })

  it("records the refusals of a switched-off key and of a model no provider serves, and those of an unknown key nowhere", async () => {
    const user = await customer(ctx, 100)
    const noProvider = await message(user, 'unserved')
    expect(noProvider.status).toBe(503)
    const unknownKey = await callRelay(ctx, '/v1/chat/completions', { key: 'sk-relay-0000000000000000000000000000000000000000', body: { model: 'calls-a', messages: [] } })
    expect(unknownKey.status).toBe(401)
    expect(unknownKey.headers.get('x-relay-request-id')).toMatch(/^\d+$/)
    await ctx.relay.db.updateTable('api_keys').set({ disabled_timestamp: ctx.clock.now() }).where('id', '=', user.keyId).execute()
    // Past the PostgreSQL relay's key cache (keys/service.ts): the key is read again, switched off.
    ctx.clock.advance(5_000)
    const disabled = await callRelay(ctx, '/v1beta/models/calls-a:generateContent', { headers: { 'x-goog-api-key': user.key }, body: { contents: [] } })
    expect(disabled.status).toBe(401)
    expect((await disabled.json()).error.message).toBe(withRequestId(disabled, "This API key is disabled: its owner can enable it again on the portal's API keys page."))
    await ctx.relay.drainSettlements()

    const own = (await walk({ user: user.id }, 10)).map(({ id, refusal, model, api, status }) => ({ id, refusal, model, api, status }))
    expect(own).toEqual([
      { id: disabled.headers.get('x-relay-request-id'), refusal: 'key_disabled', model: '', api: 'gemini', status: 401 },
      { id: noProvider.headers.get('x-relay-request-id'), refusal: 'no_provider', model: 'unserved', api: 'anthropic', status: 503 },
    ])
    expect((await calls({ request_id: unknownKey.headers.get('x-relay-request-id')! })).items).toEqual([])
  })

  it('records a key\'s refusals up to its share of a minute, answers the rest alike, and records again the next minute', async () => {
    const user = await customer(ctx, 100)
    const other = await customer(ctx, 100)
    const answers = await Promise.all(Array.from({ length: refusalsRecordedPerMinute + 5 }, () => message(user, 'no-such-model')))
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 400))
    expect(new Set(answers.map((answer) => answer.headers.get('x-relay-request-id'))).size).toBe(answers.length)
    // Another key's share is its own.
    expect((await message(other, 'no-such-model')).status).toBe(400)
    await ctx.relay.drainSettlements()
    await settled(ctx, user.id, 0, refusalsRecordedPerMinute)
    await settled(ctx, other.id, 0, 1)
    ctx.clock.advance(60_000)
    expect((await message(user, 'no-such-model')).status).toBe(400)
    await ctx.relay.drainSettlements()
    await settled(ctx, user.id, 0, refusalsRecordedPerMinute + 1)
  })

  it('filters by user, key, model, provider, outcome and time, each page for page as the whole log, and exports the same rows', async () => {
    const first = await customer(ctx, 10_000)
    const second = await customer(ctx, 10_000)
    // After every earlier test's calls.
    ctx.clock.advance(1)
    const from = ctx.clock.now()
    for (let i = 0; i < 7; i++) {
      for (const [user, model] of [[first, 'calls-a'], [second, 'calls-b'], [first, 'no-such-model']] as const) {
        await message(user, model)
        ctx.clock.advance(i % 3 === 0 ? 0 : 1_000)
      }
    }
    provider.queue({ kind: 'fail', status: 500 })
    await message(second, 'calls-a')
    await settled(ctx, first.id, 7, 7)
    await settled(ctx, second.id, 8)
    const to = ctx.clock.now() + 1

    const all = await walk({ from, to }, 100)
    expect(all).toHaveLength(22)
    const where = (keep: (call: AdminCall) => boolean) => ids(all.filter(keep))
    const cases: Array<[CallsQuery, string[]]> = [
      [{ from, to }, ids(all)],
      [{ user: first.id }, where((c) => c.user_id === first.id)],
      [{ user: second.username.toUpperCase() }, where((c) => c.user_id === second.id)],
      [{ user: 'nobody-of-that-name' }, []],
      [{ key_id: second.keyId }, where((c) => c.key_id === second.keyId)],
      [{ model: 'calls-b', from, to }, where((c) => c.model === 'calls-b')],
      [{ provider_id: providerId, from, to }, where((c) => c.provider_id === providerId)],
      [{ outcome: 'refused', from, to }, where((c) => c.outcome === 'refused')],
      [{ outcome: 'failed', from, to }, where((c) => c.outcome === 'failed')],
      [{ outcome: 'answered', user: first.id }, where((c) => c.outcome === 'answered' && c.user_id === first.id)],
      [{ from: from + 2_000, to: from + 5_000 }, where((c) => c.create_timestamp >= from + 2_000 && c.create_timestamp < from + 5_000)],
    ]
    for (const [query, expected] of cases) {
      expect(expected.length > 0 || query.user === 'nobody-of-that-name', JSON.stringify(query)).toBe(true)
      for (const pageSize of [1, 4, 100]) expect(ids(await walk(query, pageSize)), `${JSON.stringify(query)} by ${pageSize}`).toEqual(expected)
    }
    expect(all.map((call) => call.outcome)).toContain('failed')

    const csv = await ctx.request('GET', adminEndpoints.exportCalls.path, { token: operator.token, query: { user: second.id } })
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(lines[0]).toBe(
      'time_utc,request_id,key,model,api,outcome,status,refusal,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,cache_write_1h_tokens,web_search_requests,points,shortfall_points,duration_ms,first_byte_ms,charge,user_id,username,provider_id,provider,upstream_model,client_ip,relay_ms',
    )
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(where((c) => c.user_id === second.id))
  })
})
