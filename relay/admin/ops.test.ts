import { afterAll, beforeAll, afterEach, expect, it } from 'vitest'
import { adminOpsEndpoints, typicalCall } from '../contract/admin-ops.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import type { Endpoint, PartInput } from '../contract/endpoint.ts'
import { fillPath } from '../contract/paths.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { adminEndpoints } from '../contract/admin.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { fakeProviderSecret, startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { codeFlowTokens, registerClient } from '../../tests/fixtures/oauth.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { callRelay, customer, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { refreshOperatorStats } from './overview.ts'

/** A body each call accepts, so a refusal can only come from who is calling. */
const validBodies: Partial<Record<keyof typeof adminOpsEndpoints, unknown>> = {
  addProvider: { kind: 'anthropic', base_url: 'https://api.anthropic.example', key: 'sk-ant-refused-0123456789', models: 'claude-*', priority: 1 },
  updateProvider: { priority: 5 },
  setProviderEnabled: { enabled: false },
  testProvider: {},
  setPrice: { model: 'refused-*', kind: 'fixed', points_per_call: 3 },
  removePrice: { model: 'claude-opus-5-5' },
  setProvidersEnabled: { ids: ['1'], enabled: false },
  removePrices: { models: ['claude-opus-5-5'] },
  assignTicket: { assignee_id: null },
  setListPrices: { read_on: '2026-11-24', fen_per_usd: 720, items: [{ model: 'claude-*', input_cents_per_mtok: 100, output_cents_per_mtok: 500 }] },
}

let provider: FakeProvider
beforeAll(async () => {
  provider = await startFakeProvider()
})
afterAll(() => provider.close())

describeEachDatabase('operator console: overview, providers, prices, assignment', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  async function admin(): Promise<PointsUser> {
    const user = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', user.id).execute()
    return user
  }
  const audit = (kind: string, ref: string) =>
    ctx.relay.db.selectFrom('audit_log').selectAll().where('target_kind', '=', kind).where('target_ref', '=', ref).orderBy('id').execute()

  /** Each with a key of its own: the same API, address and key twice is refused as one provider added again. */
  let fakes = 0
  async function addFake(operator: PointsUser, models = 'claude-*', priority = 0): Promise<string> {
    const added = await ctx.call(adminOpsEndpoints.addProvider, {
      token: operator.token,
      body: { kind: 'anthropic', base_url: provider.url, key: `${fakeProviderSecret}-${++fakes}`, models, priority },
    })
    return added.id
  }

  it('refuses every call to a normal user, a team user, an API key and an OAuth client token, and changes nothing', async () => {
    const normal = await quickUser(ctx)
    const team = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'team' }).where('id', '=', team.id).execute()
    const apiKey = (await ctx.call(apiKeyEndpoints.create, { token: normal.token, body: { name: 'k' } })).key
    const operator = await admin()
    const oauthToken = (await codeFlowTokens(ctx, operator.token, await registerClient(ctx))).access_token
    const providerId = await addFake(operator)
    const ticket = await ctx.call(ticketEndpoints.create, { token: normal.token, body: { type: 'other', title: 't', content: 'c' } })
    await ctx.call(adminOpsEndpoints.assignTicket, { params: { id: ticket.id }, token: operator.token, body: { assignee_id: operator.id } })
    provider.received.length = 0

    const snapshot = async () => ({
      providers: await ctx.relay.db.selectFrom('proxy_providers').selectAll().orderBy('id').execute(),
      prices: await ctx.relay.db.selectFrom('model_costs').selectAll().orderBy('model').execute(),
      tickets: await ctx.relay.db.selectFrom('tickets').select(['id', 'assignee_id']).orderBy('id').execute(),
      audit: await ctx.relay.db.selectFrom('audit_log').select('id').orderBy('id').execute(),
    })
    const before = await snapshot()
    const unknownRoute = await ctx.request('GET', '/api/admin/nothing-here', { token: normal.token })
    // Raw: every declaration alike, each refusal compared, envelope and all, with the unknown path's.
    for (const [name, endpoint] of Object.entries(adminOpsEndpoints) as Array<[keyof typeof adminOpsEndpoints, Endpoint]>) {
      const path = fillPath(endpoint.path, { id: endpoint.path.includes('/tickets/') ? ticket.id : providerId })
      const send = (token: string | undefined) => ctx.request(endpoint.method.toUpperCase(), path, { token, body: validBodies[name] })
      for (const token of [normal.token, team.token, oauthToken]) {
        const reply = await send(token)
        expect(reply.status, name).toBe(404)
        expect({ ...reply.body, timestamp: 0 }).toEqual({ ...unknownRoute.body, timestamp: 0, message: `no route for ${endpoint.method.toUpperCase()} ${path}` })
      }
      for (const token of [apiKey, undefined]) expect((await send(token)).status, name).toBe(401)
    }
    expect(await snapshot()).toEqual(before)
    // No test call reached the provider.
    expect(provider.received).toEqual([])
  })

  it("shows over a period exactly what the call log and the ledger hold, by model and provider, with active users and keys and open tickets", async () => {
    const operator = await admin()
    // Models only this provider serves: its failure is the call's (no other provider to fail over to).
    const family = `ops-${ctx.unique('f')}`
    const [big, small] = [`${family}-big`, `${family}-small`]
    await priceModel(ctx, { model: big, kind: 'variable', input_points_per_mtok: 3000, output_points_per_mtok: 15_000 })
    await priceModel(ctx, { model: small, kind: 'fixed', points_per_call: 2 })
    const main = await addFake(operator, `${family}-*`, 10)
    const users = [await customer(ctx, 100_000), await customer(ctx, 100_000)]
    const send = async (key: string, model: string) => {
      const response = await callRelay(ctx, '/v1/messages', { key, body: { model, max_tokens: 500, messages: [{ role: 'user', content: 'Hi' }] } })
      await response.text()
      return response.status
    }
    provider.queue({ kind: 'fail', status: 500 }, { kind: 'answer', usage: { input_tokens: 2000, output_tokens: 300 } })
    for (let i = 0; i < 4; i++) await send(users[0]!.key, big)
    for (let i = 0; i < 3; i++) await send(users[1]!.key, small)
    await settled(ctx, users[0]!.id, 4)
    await settled(ctx, users[1]!.id, 3)
    await ctx.call(ticketEndpoints.create, { token: users[0]!.token, body: { type: 'other', title: 'Help', content: 'Please' } })

    // Two relays at once: the cursor lets only one count each call.
    await Promise.all([refreshOperatorStats(servicesOf(ctx), { settleLagMs: 0 }), refreshOperatorStats(servicesOf(ctx), { settleLagMs: 0 })])
    const data = await ctx.call(adminOpsEndpoints.overview, { token: operator.token, query: { period: '30d' } })
    const from = data.from_timestamp

    const calls = await ctx.relay.db.selectFrom('proxy_calls').selectAll().where('create_timestamp', '>=', from).execute()
    const consumed = await ctx.relay.db.selectFrom('points_ledger').select('change').where('type', '=', 'consumed').where('create_timestamp', '>=', from).execute()
    const sum = (values: Array<number | string>) => values.reduce<number>((total, value) => total + Number(value), 0)
    expect(calls.length).toBeGreaterThanOrEqual(7)
    // Counted as relay_calls_total counts them (outcome labels), the relay's own refusals apart.
    const counted = calls.filter((c) => c.refusal === null)
    const ended = (...outcomes: string[]) => counted.filter((c) => outcomes.includes(c.outcome)).length
    expect(data.totals).toMatchObject({
      calls: counted.length,
      answered: ended('completed'),
      failures: ended('failed'),
      cut: ended('cut', 'abandoned'),
      refused: ended('refused'),
      relay_refused: calls.length - counted.length,
      points: sum(calls.map((c) => c.points)),
      input_tokens: sum(calls.map((c) => c.input_tokens)),
      output_tokens: sum(calls.map((c) => c.output_tokens)),
      active_users: new Set(calls.map((c) => String(c.user_id))).size,
      active_keys: new Set(calls.filter((c) => c.key_id !== null).map((c) => String(c.key_id))).size,
    })
    // What the calls were charged is what the ledger consumed.
    expect(data.totals.points).toBe(-sum(consumed.map((row) => row.change)))
    expect(data.totals.relay_p50_below_ms).not.toBeNull()
    expect(data.totals.failures).toBeGreaterThanOrEqual(1)
    for (const model of [big, small]) {
      const ofModel = calls.filter((c) => c.model === model)
      expect(data.by_model.find((row) => row.model === model)).toMatchObject({ calls: ofModel.length, points: sum(ofModel.map((c) => c.points)) })
    }
    const mainCalls = calls.filter((c) => String(c.provider_id) === main)
    // Every provider of this suite is the fake on one address: their labels still differ, by the key's last four characters.
    const labels = data.providers.map((p) => p.label)
    expect(data.providers.length).toBeGreaterThan(1)
    expect(new Set(labels).size).toBe(labels.length)
    const mainLabel = data.providers.find((p) => p.id === main)!.label
    expect(mainLabel).toBe(`anthropic · ${new URL(provider.url).host} · …${`${fakeProviderSecret}-${fakes}`.slice(-4)}`)
    expect(data.by_provider.find((row) => row.provider_id === main)).toMatchObject({ calls: mainCalls.length, provider: mainLabel })

    const tickets = await ctx.relay.db.selectFrom('tickets').select('status').execute()
    for (const { status, count } of data.tickets) expect(count).toBe(tickets.filter((t) => t.status === status).length)
    expect(data.providers.find((p) => p.id === main)).toMatchObject({ enabled: true, priority: 10, circuit: { state: 'closed' }, recent: { calls: mainCalls.length } })

    // A later run adds nothing; the 24-hour view of the same calls agrees with the call log too.
    expect(await refreshOperatorStats(servicesOf(ctx), { settleLagMs: 0 })).toBe(0)
    const day = await ctx.call(adminOpsEndpoints.overview, { token: operator.token, query: { period: '24h' } })
    expect(day.totals.calls).toBe(counted.filter((c) => c.create_timestamp >= day.from_timestamp).length)
    // Raw: a period the call does not declare.
    expect((await ctx.request('GET', adminOpsEndpoints.overview.path, { token: operator.token, query: { period: '1y' } })).status).toBe(400)
  })

  it('adds a provider once per form key, never showing its key, edits, disables, enables and tests it, each on the audit log', async () => {
    const operator = await admin()
    const body = { kind: 'anthropic' as const, base_url: `${provider.url}/`, key: fakeProviderSecret, models: 'claude-opus-5-5, claude-*', priority: 3 }
    const idempotencyKey = 'provider-form-key-001'
    // Raw: the bytes sent must not hold the key, not only the fields the reply's schema keeps.
    const first = await ctx.request('POST', adminOpsEndpoints.addProvider.path, { token: operator.token, body, headers: { 'idempotency-key': idempotencyKey } })
    expect(first.status, first.text).toBe(200)
    expect((await ctx.call(adminOpsEndpoints.addProvider, { token: operator.token, body, idempotencyKey })).id).toBe(first.body.data.id)
    const id = first.body.data.id as string
    expect(first.body.data).toMatchObject({ base_url: provider.url, models: ['claude-opus-5-5', 'claude-*'], priority: 3, enabled: true, key_readable: true })
    expect(first.text).not.toContain(fakeProviderSecret)
    expect(first.body.data.key).toMatch(/…0000$/)
    const bad = await ctx.refusal(adminOpsEndpoints.addProvider, { token: operator.token, body: { ...body, base_url: 'https://api.anthropic.example/v1' } })
    expect(bad.status).toBe(400)
    expect(bad.details?.fields?.base_url).toBeDefined()

    const ofProvider = (providerId: string) => ({ params: { id: providerId }, token: operator.token })
    provider.received.length = 0
    const tested = await ctx.call(adminOpsEndpoints.testProvider, { ...ofProvider(id), body: {} })
    expect(tested).toMatchObject({ ok: true, status: 200, model: 'claude-opus-5-5', error: null })
    expect(provider.received).toHaveLength(1)
    expect(provider.received[0]!.body).toMatchObject({ model: 'claude-opus-5-5', max_tokens: 1 })
    expect(provider.received[0]!.headers['x-api-key']).toBe(fakeProviderSecret)
    provider.queue({ kind: 'fail', status: 401 })
    expect(await ctx.call(adminOpsEndpoints.testProvider, { ...ofProvider(id), body: { model: 'claude-opus-4-8' } })).toMatchObject({ ok: false, status: 401, model: 'claude-opus-4-8', error: 'HTTP 401' })

    const edited = await ctx.call(adminOpsEndpoints.updateProvider, { ...ofProvider(id), body: { priority: 7, models: 'claude-opus-*' } })
    expect(edited).toMatchObject({ priority: 7, models: ['claude-opus-*'] })
    expect((await ctx.call(adminOpsEndpoints.setProviderEnabled, { ...ofProvider(id), body: { enabled: false } })).enabled).toBe(false)
    expect((await ctx.call(adminOpsEndpoints.setProviderEnabled, { ...ofProvider(id), body: { enabled: true } })).enabled).toBe(true)
    expect((await ctx.refusal(adminOpsEndpoints.updateProvider, { ...ofProvider('999'), body: { priority: 1 } })).status).toBe(404)

    const rows = await audit('provider', id)
    expect(rows.map((r) => [r.actor_kind, r.actor_id, r.action])).toEqual([
      ['admin', operator.id, 'provider.add'],
      ['admin', operator.id, 'provider.test'],
      ['admin', operator.id, 'provider.test'],
      ['admin', operator.id, 'provider.update'],
      ['admin', operator.id, 'provider.disable'],
      ['admin', operator.id, 'provider.enable'],
    ])
    expect(JSON.parse(rows[2]!.after!)).toMatchObject({ ok: false, status: 401 })
    expect(JSON.parse(rows[3]!.before!)).toEqual({ models: ['claude-opus-5-5', 'claude-*'], model_map: [], priority: 3 })
    expect(JSON.parse(rows[3]!.after!)).toEqual({ models: ['claude-opus-*'], model_map: [], priority: 7 })
    for (const row of rows) expect(`${row.before}${row.after}`).not.toContain(fakeProviderSecret)

    // The CLI runs the same functions and is recorded as the OS user.
    expect((await runOperatorCli(ctx, 'provider', 'set', id, '--priority', '2')).code).toBe(0)
    expect((await runOperatorCli(ctx, 'provider', 'test', id, '--model', 'claude-opus-5-5')).stdout).toMatch(/^ok: claude-opus-5-5, HTTP 200, \d+ ms$/)
    expect((await runOperatorCli(ctx, 'provider', 'disable', id)).code).toBe(0)
    expect((await audit('provider', id)).slice(6).map((r) => [r.actor_kind, r.action])).toEqual([
      ['cli', 'provider.update'],
      ['cli', 'provider.test'],
      ['cli', 'provider.disable'],
    ])
    const listed = (await ctx.call(adminOpsEndpoints.providers, { token: operator.token })).items.find((p) => p.id === id)
    expect(listed).toMatchObject({ priority: 2, enabled: false, circuit: { state: 'closed', open_until: null } })
  })

  it('lists prices with what a typical call costs, sets, edits and removes one, each on the audit log', async () => {
    const operator = await admin()
    const prices = await ctx.call(adminOpsEndpoints.prices, { token: operator.token })
    expect(prices.typical).toEqual(typicalCall)
    // Opus 5.5 at 400 / 2000 points per million tokens (docs/decisions/080-prices.md): 20,000 × 400 + 1,000 × 2,000, per million.
    expect(prices.items.find((p) => p.model === 'claude-opus-5-5')).toMatchObject({ pattern: false, typical_points: 10 })
    expect(prices.items.find((p) => p.model === 'claude-opus-*')).toMatchObject({ pattern: true })

    const model = `console-${ctx.unique('m')}-*`
    const setting = (body: PartInput<typeof adminOpsEndpoints.setPrice, 'body'>) => ({ token: operator.token, body })
    const created = await ctx.call(adminOpsEndpoints.setPrice, setting({ model, kind: 'variable', input_points_per_mtok: 100, output_points_per_mtok: 500 }))
    expect(created).toMatchObject({ model, pattern: true, typical_points: 3 })
    expect(await ctx.call(adminOpsEndpoints.setPrice, setting({ model, kind: 'fixed', points_per_call: 4 }))).toMatchObject({ kind: 'fixed', input_points_per_mtok: null, typical_points: 4 })
    expect((await ctx.refusal(adminOpsEndpoints.setPrice, setting({ model, kind: 'variable', input_points_per_mtok: 1 }))).status).toBe(400)
    const removing = { token: operator.token, body: { model } }
    await ctx.call(adminOpsEndpoints.removePrice, removing)
    expect((await ctx.refusal(adminOpsEndpoints.removePrice, removing)).status).toBe(404)

    const rows = await audit('price', model)
    expect(rows.map((r) => r.action)).toEqual(['price.set', 'price.set', 'price.remove'])
    expect(rows[0]!.before).toBeNull()
    expect(JSON.parse(rows[1]!.before!)).toMatchObject({ kind: 'variable', input_points_per_mtok: 100 })
    expect(JSON.parse(rows[1]!.after!)).toMatchObject({ kind: 'fixed', points_per_call: 4 })
    expect(JSON.parse(rows[2]!.before!)).toMatchObject({ kind: 'fixed' })
    expect(rows[2]!.after).toBeNull()

    expect((await runOperatorCli(ctx, 'model-cost', 'set', '--model', model, '--kind', 'fixed', '--points-per-call', '2')).code).toBe(0)
    expect((await runOperatorCli(ctx, 'model-cost', 'remove', '--model', model)).code).toBe(0)
    expect((await audit('price', model)).slice(3).map((r) => [r.actor_kind, r.action])).toEqual([
      ['cli', 'price.set'],
      ['cli', 'price.remove'],
    ])
  })

  it('assigns tickets to operators, filters the queue by assignee, and records each assignment', async () => {
    const operator = await admin()
    const other = await admin()
    const owner = await quickUser(ctx)
    const open = () => ctx.call(ticketEndpoints.create, { token: owner.token, body: { type: 'other', title: 'Q', content: 'c' } })
    const [mine, theirs, nobodys] = [await open(), await open(), await open()]
    const operators = (await ctx.call(adminOpsEndpoints.operators, { token: operator.token })).items.map((u) => u.id)
    expect(operators).toEqual(expect.arrayContaining([operator.id, other.id]))
    expect(operators).not.toContain(owner.id)

    const assigning = (ticket: string, to: string | null) => ({ params: { id: ticket }, token: operator.token, body: { assignee_id: to } })
    const assign = (ticket: string, to: string | null) => ctx.call(adminOpsEndpoints.assignTicket, assigning(ticket, to))
    expect(await assign(mine.id, operator.id)).toEqual({ assignee_id: operator.id, assignee_name: operator.username })
    await assign(theirs.id, operator.id)
    expect((await assign(theirs.id, other.id)).assignee_name).toBe(other.username)
    expect((await ctx.refusal(adminOpsEndpoints.assignTicket, assigning(nobodys.id, '999'))).status).toBe(404)

    const queue = async (assignee: string) => (await ctx.call(adminEndpoints.tickets, { token: operator.token, query: { assignee, pageSize: 100 } })).items.map((t) => t.id)
    expect(await queue(operator.id)).toContain(mine.id)
    expect(await queue(operator.id)).not.toContain(theirs.id)
    expect(await queue(other.id)).toContain(theirs.id)
    expect(await queue('none')).toContain(nobodys.id)
    expect(await queue('none')).not.toContain(mine.id)
    expect(await assign(mine.id, null)).toEqual({ assignee_id: null, assignee_name: null })
    expect(await queue('none')).toContain(mine.id)

    expect((await audit('ticket', theirs.number)).map((r) => [r.action, r.before, r.after])).toEqual([
      ['ticket.assign', '{"assignee":null}', `{"assignee":"${operator.username}"}`],
      ['ticket.assign', `{"assignee":"${operator.username}"}`, `{"assignee":"${other.username}"}`],
    ])
    expect(await audit('ticket', nobodys.number)).toEqual([])
  })

  it("adds and removes a ticket's tags, a repeated change changing nothing more, each change on the audit log", async () => {
    const operator = await admin()
    const owner = await quickUser(ctx)
    const ticket = await ctx.call(ticketEndpoints.create, { token: owner.token, body: { type: 'other', title: 'Tags', content: 'c' } })
    const changing = (body: PartInput<typeof adminEndpoints.setTicketTags, 'body'>) => ({ params: { id: ticket.id }, token: operator.token, body })
    const change = async (body: Parameters<typeof changing>[0]) => (await ctx.call(adminEndpoints.setTicketTags, changing(body))).tags
    expect(await change({ add: ['billing', 'urgent'] })).toEqual(['billing', 'urgent'])
    expect(await change({ add: ['billing'] })).toEqual(['billing', 'urgent'])
    expect(await change({ remove: ['urgent'] })).toEqual(['billing'])
    expect(await change({ remove: ['urgent'] })).toEqual(['billing'])
    expect((await ctx.refusal(adminEndpoints.setTicketTags, changing({ add: [' '] }))).status).toBe(400)
    expect((await ctx.refusal(adminEndpoints.setTicketTags, changing({ add: Array.from({ length: 10 }, (_, i) => `t${i}`) }))).status).toBe(400)
    // The owner sees the tags on their ticket.
    expect((await ctx.call(ticketEndpoints.detail, { params: { id: ticket.id }, token: owner.token })).tags).toEqual(['billing'])
    expect((await runOperatorCli(ctx, 'ticket', 'tag', ticket.number, '--tags', '')).code).toBe(0)
    expect((await audit('ticket', ticket.number)).map((r) => [r.actor_kind, r.action, r.before, r.after])).toEqual([
      ['admin', 'ticket.tags', '{"tags":[]}', '{"tags":["billing","urgent"]}'],
      ['admin', 'ticket.tags', '{"tags":["billing","urgent"]}', '{"tags":["billing"]}'],
      ['cli', 'ticket.tags', '{"tags":["billing"]}', '{"tags":[]}'],
    ])
  })

  it('removes a provider once, audited with its state before; its calls stay on record', async () => {
    const operator = await admin()
    const id = await addFake(operator, `gone-${ctx.unique('m')}-*`)
    const removing = { params: { id }, token: operator.token }
    expect(await ctx.call(adminOpsEndpoints.removeProvider, removing)).toEqual({ id })
    expect((await ctx.refusal(adminOpsEndpoints.removeProvider, removing)).status).toBe(404)
    expect((await ctx.call(adminOpsEndpoints.providers, { token: operator.token })).items.map((p) => p.id)).not.toContain(id)
    const rows = await audit('provider', id)
    expect(rows.map((r) => [r.actor_id, r.action])).toEqual([
      [operator.id, 'provider.add'],
      [operator.id, 'provider.remove'],
    ])
    expect(JSON.parse(rows[1]!.before!)).toMatchObject({ priority: 0 })
    expect(rows[1]!.before).not.toContain(fakeProviderSecret)
  })
})
