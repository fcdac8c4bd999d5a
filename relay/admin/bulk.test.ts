import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { adminEndpoints } from '../contract/admin.ts'
import { adminOpsEndpoints } from '../contract/admin-ops.ts'
import type { Endpoint } from '../contract/endpoint.ts'
import { fillPath } from '../contract/paths.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { fakeProviderSecret, startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeCodes, quickUser, type PointsUser } from '../../tests/fixtures/points.ts'

let provider: FakeProvider
beforeAll(async () => {
  provider = await startFakeProvider()
})
afterAll(() => provider.close())

describeEachDatabase('operator console: bulk actions and list filters', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  let operator: PointsUser
  const call = (endpoint: Endpoint, options: { id?: string; body?: unknown; query?: Record<string, string> } = {}) =>
    ctx.request(endpoint.method.toUpperCase(), options.id ? fillPath(endpoint.path, { id: options.id }) : endpoint.path, { token: operator.token, body: options.body, query: options.query })
  const audit = (action: string, refs: string[]) =>
    ctx.relay.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_ref', 'in', refs).where('actor_id', '=', operator.id).orderBy('id').execute()
  const auditCount = async () => (await ctx.relay.db.selectFrom('audit_log').select('id').execute()).length

  async function signInAdmin() {
    operator = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
  }

  it('disables three users with one audit row each; a repeat changes nothing; an unknown id or the caller refuses all', async () => {
    await signInAdmin()
    const users = [await quickUser(ctx), await quickUser(ctx), await quickUser(ctx)]
    const ids = users.map((user) => user.id)
    const names = users.map((user) => user.username)

    const before = await auditCount()
    for (const refused of [[...ids, '999999999'], [...ids, operator.id]]) {
      expect((await call(adminEndpoints.setUsersStatus, { body: { user_ids: refused, status: 'disabled' } })).status).not.toBe(200)
    }
    expect(await auditCount()).toBe(before)

    const disabled = await call(adminEndpoints.setUsersStatus, { body: { user_ids: ids, status: 'disabled' } })
    expect(disabled.body.data).toEqual({ changed: 3 })
    expect((await audit('user.disable', names)).map((row) => row.target_ref).sort()).toEqual([...names].sort())
    // A disabled user's token stops working.
    expect((await ctx.request('GET', '/api/user/info', { token: users[0]!.token })).status).toBe(401)

    expect((await call(adminEndpoints.setUsersStatus, { body: { user_ids: ids, status: 'disabled' } })).body.data).toEqual({ changed: 0 })
    expect(await audit('user.disable', names)).toHaveLength(3)

    // The list filters by state (and still by text).
    const listed = await call(adminEndpoints.users, { query: { status: 'disabled', q: names[1]!, pageSize: '100' } })
    expect(listed.body.data.items.map((user: { id: string }) => user.id)).toEqual([ids[1]])
    const active = await call(adminEndpoints.users, { query: { status: 'active', pageSize: '100' } })
    expect(active.body.data.items.map((user: { id: string }) => user.id)).not.toContain(ids[0])

    expect((await call(adminEndpoints.setUsersStatus, { body: { user_ids: ids.slice(0, 2), status: 'active' } })).body.data).toEqual({ changed: 2 })
    expect(await audit('user.enable', names)).toHaveLength(2)
  })

  it('revokes unused codes ticked together, one audit row each, and lists or exports codes by id', async () => {
    await signInAdmin()
    const generated = await call(adminEndpoints.generateCodes, { body: { package_code: 'PERSONAL', count: 4 } })
    expect(generated.status).toBe(200)
    const batch = generated.body.data.batch_id as string
    const codes = (await call(adminEndpoints.redeemCodes, { query: { batch, pageSize: '10' } })).body.data.items as Array<{ id: string }>
    const ids = codes.map((code) => code.id)
    const used = await quickUser(ctx)
    const [usedCode] = await makeCodes(ctx, 'PERSONAL')
    expect((await ctx.request('POST', '/api/user/redeem-code', { token: used.token, body: { redeem_code: usedCode } })).status).toBe(200)
    const usedId = (await call(adminEndpoints.redeemCodes, { query: { state: 'used', pageSize: '100' } })).body.data.items.find((code: { used_by: string }) => code.used_by === used.id).id as string

    expect((await call(adminEndpoints.revokeCodes, { body: { ids: [...ids.slice(0, 3), '999999999'] } })).status).toBe(404)
    const revoked = await call(adminEndpoints.revokeCodes, { body: { ids: [...ids.slice(0, 3), usedId] } })
    expect(revoked.body.data).toEqual({ changed: 3 })
    expect((await audit('redeem_code.revoke', [...ids, usedId])).map((row) => row.target_ref)).toEqual(ids.slice(0, 3).sort())
    expect((await call(adminEndpoints.revokeCodes, { body: { ids: ids.slice(0, 3) } })).body.data).toEqual({ changed: 0 })

    const chosen = await call(adminEndpoints.redeemCodes, { query: { ids: [ids[0], ids[3], usedId].join(','), pageSize: '100' } })
    expect(chosen.body.data.items.map((code: { id: string; state: string }) => [code.id, code.state]).sort()).toEqual(
      [
        [ids[0], 'revoked'],
        [ids[3], 'unused'],
        [usedId, 'used'],
      ].sort(),
    )
    expect((await call(adminEndpoints.redeemCodes, { query: { ids: 'a,b' } })).status).toBe(400)
  })

  it('makes a batch of up to 10,000 codes in the console, one audit row for the batch', async () => {
    await signInAdmin()
    expect((await call(adminEndpoints.generateCodes, { body: { package_code: 'PERSONAL', count: 10_001 } })).status).toBe(400)
    const generated = await call(adminEndpoints.generateCodes, { body: { package_code: 'PERSONAL', count: 10_000 } })
    expect(generated.status).toBe(200)
    const codes = generated.body.data.codes as string[]
    expect(new Set(codes).size).toBe(10_000)
    const stored = await ctx.relay.db.selectFrom('redeem_codes').select((eb) => eb.fn.countAll<number | string>().as('n')).where('batch_id', '=', generated.body.data.batch_id).executeTakeFirstOrThrow()
    expect(Number(stored.n)).toBe(10_000)
    expect(await audit('redeem_codes.generate', [generated.body.data.batch_id])).toHaveLength(1)
  })

  it('disables providers ticked together and filters them by kind and state', async () => {
    await signInAdmin()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const added = await call(adminOpsEndpoints.addProvider, { body: { kind: 'anthropic', base_url: provider.url, key: `${fakeProviderSecret}-bulk-${ctx.unique()}`, models: 'bulk-*', priority: 0 } })
      expect(added.status, added.text).toBe(200)
      ids.push(added.body.data.id as string)
    }
    expect((await call(adminOpsEndpoints.setProvidersEnabled, { body: { ids: [...ids, '999999999'], enabled: false } })).status).toBe(404)
    expect((await call(adminOpsEndpoints.setProvidersEnabled, { body: { ids, enabled: false } })).body.data).toEqual({ changed: 3 })
    expect(await audit('provider.disable', ids)).toHaveLength(3)
    expect((await call(adminOpsEndpoints.setProvidersEnabled, { body: { ids, enabled: false } })).body.data).toEqual({ changed: 0 })

    const listed = (query: Record<string, string>) => call(adminOpsEndpoints.providers, { query }).then((reply) => reply.body.data.items.map((p: { id: string }) => p.id) as string[])
    expect(await listed({ state: 'disabled' })).toEqual(expect.arrayContaining(ids))
    expect(await listed({ state: 'enabled' })).not.toContain(ids[0])
    expect(await listed({ kind: 'openai' })).not.toContain(ids[0])
    expect(await listed({ kind: 'anthropic', state: 'disabled' })).toEqual(expect.arrayContaining(ids))

    expect((await call(adminOpsEndpoints.setProvidersEnabled, { body: { ids: [ids[0]], enabled: true } })).body.data).toEqual({ changed: 1 })
    expect(await audit('provider.enable', ids)).toHaveLength(1)
  })

  it('removes prices ticked together, one audit row each, and finds prices by model text', async () => {
    await signInAdmin()
    const models = ['bulkprice-a', 'bulkprice-b', 'bulkprice-c', 'bulkkeep-d'].map((model) => `${model}-${ctx.unique('')}`)
    for (const model of models) expect((await call(adminOpsEndpoints.setPrice, { body: { model, kind: 'fixed', points_per_call: 2 } })).status).toBe(200)
    const found = await call(adminOpsEndpoints.prices, { query: { q: 'BULKPRICE' } })
    expect(found.body.data.items.map((price: { model: string }) => price.model).sort()).toEqual(expect.arrayContaining(models.slice(0, 3)))
    expect(found.body.data.items.map((price: { model: string }) => price.model)).not.toContain(models[3])

    expect((await call(adminOpsEndpoints.removePrices, { body: { models: models.slice(0, 3) } })).body.data).toEqual({ changed: 3 })
    expect(await audit('price.remove', models)).toHaveLength(3)
    // Already gone: nothing more is removed or recorded.
    expect((await call(adminOpsEndpoints.removePrices, { body: { models: models.slice(0, 3) } })).body.data).toEqual({ changed: 0 })
    const left = (await call(adminOpsEndpoints.prices)).body.data.items.map((price: { model: string }) => price.model)
    expect(left).toContain(models[3])
    expect(left).not.toContain(models[0])
  })

  it('finds tickets by part of their number or of their owner’s username', async () => {
    await signInAdmin()
    const owner = await quickUser(ctx)
    const other = await quickUser(ctx)
    const mine = await ctx.request('POST', ticketEndpoints.create.path, { token: owner.token, body: { type: 'other', title: 'mine', content: 'c' } })
    await ctx.request('POST', ticketEndpoints.create.path, { token: other.token, body: { type: 'other', title: 'theirs', content: 'c' } })
    const found = (q: string) => call(adminEndpoints.tickets, { query: { q, pageSize: '100' } }).then((reply) => reply.body.data.items.map((t: { id: string }) => t.id) as string[])
    expect(await found(owner.username.toUpperCase())).toEqual([mine.body.data.id])
    expect(await found((mine.body.data.number as string).toLowerCase())).toEqual([mine.body.data.id])
    expect(await found('%')).toEqual([])
  })
})
