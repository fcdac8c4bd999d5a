import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { adminEndpoints } from '../contract/admin.ts'
import { adminOpsEndpoints } from '../contract/admin-ops.ts'
import type { PartInput } from '../contract/endpoint.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
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
    const setting = (body: PartInput<typeof adminEndpoints.setUsersStatus, 'body'>) => ({ token: operator.token, body })
    for (const refused of [[...ids, '999999999'], [...ids, operator.id]]) {
      await ctx.refusal(adminEndpoints.setUsersStatus, setting({ user_ids: refused, status: 'disabled' }))
    }
    expect(await auditCount()).toBe(before)

    const disabled = await ctx.call(adminEndpoints.setUsersStatus, setting({ user_ids: ids, status: 'disabled' }))
    expect(disabled).toEqual({ changed: 3 })
    expect((await audit('user.disable', names)).map((row) => row.target_ref).sort()).toEqual([...names].sort())
    // A disabled user's token stops working.
    expect((await ctx.refusal(accountEndpoints.info, { token: users[0]!.token })).status).toBe(401)

    expect(await ctx.call(adminEndpoints.setUsersStatus, setting({ user_ids: ids, status: 'disabled' }))).toEqual({ changed: 0 })
    expect(await audit('user.disable', names)).toHaveLength(3)

    // The list filters by state (and still by text).
    const listed = await ctx.call(adminEndpoints.users, { token: operator.token, query: { status: 'disabled', q: names[1]!, pageSize: 100 } })
    expect(listed.items.map((user) => user.id)).toEqual([ids[1]])
    const active = await ctx.call(adminEndpoints.users, { token: operator.token, query: { status: 'active', pageSize: 100 } })
    expect(active.items.map((user) => user.id)).not.toContain(ids[0])

    expect(await ctx.call(adminEndpoints.setUsersStatus, setting({ user_ids: ids.slice(0, 2), status: 'active' }))).toEqual({ changed: 2 })
    expect(await audit('user.enable', names)).toHaveLength(2)
  })

  it('revokes unused codes ticked together, one audit row each, and lists or exports codes by id', async () => {
    await signInAdmin()
    const generated = await ctx.call(adminEndpoints.generateCodes, { token: operator.token, body: { package_code: 'PERSONAL', count: 4 } })
    const batch = generated.batch_id
    const listing = (query: PartInput<typeof adminEndpoints.redeemCodes, 'query'>) => ({ token: operator.token, query })
    const codes = (await ctx.call(adminEndpoints.redeemCodes, listing({ batch, pageSize: 10 }))).items
    const ids = codes.map((code) => code.id)
    const used = await quickUser(ctx)
    const [usedCode] = await makeCodes(ctx, 'PERSONAL')
    await ctx.call(subscriptionEndpoints.redeemCode, { token: used.token, body: { redeem_code: usedCode! } })
    const usedId = (await ctx.call(adminEndpoints.redeemCodes, listing({ state: 'used', pageSize: 100 }))).items.find((code) => code.used_by === used.id)!.id

    const revoking = (codeIds: string[]) => ({ token: operator.token, body: { ids: codeIds } })
    expect((await ctx.refusal(adminEndpoints.revokeCodes, revoking([...ids.slice(0, 3), '999999999']))).status).toBe(404)
    const revoked = await ctx.call(adminEndpoints.revokeCodes, revoking([...ids.slice(0, 3), usedId]))
    expect(revoked).toEqual({ changed: 3 })
    expect((await audit('redeem_code.revoke', [...ids, usedId])).map((row) => row.target_ref)).toEqual(ids.slice(0, 3).sort())
    expect(await ctx.call(adminEndpoints.revokeCodes, revoking(ids.slice(0, 3)))).toEqual({ changed: 0 })

    const chosen = await ctx.call(adminEndpoints.redeemCodes, listing({ ids: [ids[0], ids[3], usedId].join(','), pageSize: 100 }))
    expect(chosen.items.map((code) => [code.id, code.state]).sort()).toEqual(
      [
        [ids[0], 'revoked'],
        [ids[3], 'unused'],
        [usedId, 'used'],
      ].sort(),
    )
    expect((await ctx.refusal(adminEndpoints.redeemCodes, listing({ ids: 'a,b' }))).status).toBe(400)
  })

  it('makes a batch of up to 10,000 codes in the console, one audit row for the batch', async () => {
    await signInAdmin()
    const generating = (count: number) => ({ token: operator.token, body: { package_code: 'PERSONAL', count } })
    expect((await ctx.refusal(adminEndpoints.generateCodes, generating(10_001))).status).toBe(400)
    const generated = await ctx.call(adminEndpoints.generateCodes, generating(10_000))
    const codes = generated.codes
    expect(new Set(codes).size).toBe(10_000)
    const stored = await ctx.relay.db.selectFrom('redeem_codes').select((eb) => eb.fn.countAll<number | string>().as('n')).where('batch_id', '=', generated.batch_id).executeTakeFirstOrThrow()
    expect(Number(stored.n)).toBe(10_000)
    expect(await audit('redeem_codes.generate', [generated.batch_id])).toHaveLength(1)
  })

  it('disables providers ticked together and filters them by kind and state', async () => {
    await signInAdmin()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const added = await ctx.call(adminOpsEndpoints.addProvider, {
        token: operator.token,
        body: { kind: 'anthropic', base_url: provider.url, key: `${fakeProviderSecret}-bulk-${ctx.unique()}`, models: 'bulk-*', priority: 0 },
      })
      ids.push(added.id)
    }
    const enabling = (providerIds: string[], enabled: boolean) => ({ token: operator.token, body: { ids: providerIds, enabled } })
    expect((await ctx.refusal(adminOpsEndpoints.setProvidersEnabled, enabling([...ids, '999999999'], false))).status).toBe(404)
    expect(await ctx.call(adminOpsEndpoints.setProvidersEnabled, enabling(ids, false))).toEqual({ changed: 3 })
    expect(await audit('provider.disable', ids)).toHaveLength(3)
    expect(await ctx.call(adminOpsEndpoints.setProvidersEnabled, enabling(ids, false))).toEqual({ changed: 0 })

    const listed = (query: PartInput<typeof adminOpsEndpoints.providers, 'query'>) =>
      ctx.call(adminOpsEndpoints.providers, { token: operator.token, query }).then((reply) => reply.items.map((p) => p.id))
    expect(await listed({ state: 'disabled' })).toEqual(expect.arrayContaining(ids))
    expect(await listed({ state: 'enabled' })).not.toContain(ids[0])
    expect(await listed({ kind: 'openai' })).not.toContain(ids[0])
    expect(await listed({ kind: 'anthropic', state: 'disabled' })).toEqual(expect.arrayContaining(ids))

    expect(await ctx.call(adminOpsEndpoints.setProvidersEnabled, enabling([ids[0]!], true))).toEqual({ changed: 1 })
    expect(await audit('provider.enable', ids)).toHaveLength(1)
  })

  it('removes prices ticked together, one audit row each, and finds prices by model text', async () => {
    await signInAdmin()
    const models = ['bulkprice-a', 'bulkprice-b', 'bulkprice-c', 'bulkkeep-d'].map((model) => `${model}-${ctx.unique('')}`)
    for (const model of models) await ctx.call(adminOpsEndpoints.setPrice, { token: operator.token, body: { model, kind: 'fixed', points_per_call: 2 } })
    const found = await ctx.call(adminOpsEndpoints.prices, { token: operator.token, query: { q: 'BULKPRICE' } })
    expect(found.items.map((price) => price.model).sort()).toEqual(expect.arrayContaining(models.slice(0, 3)))
    expect(found.items.map((price) => price.model)).not.toContain(models[3])

    const removing = { token: operator.token, body: { models: models.slice(0, 3) } }
    expect(await ctx.call(adminOpsEndpoints.removePrices, removing)).toEqual({ changed: 3 })
    expect(await audit('price.remove', models)).toHaveLength(3)
    // Already gone: nothing more is removed or recorded.
    expect(await ctx.call(adminOpsEndpoints.removePrices, removing)).toEqual({ changed: 0 })
    const left = (await ctx.call(adminOpsEndpoints.prices, { token: operator.token })).items.map((price) => price.model)
    expect(left).toContain(models[3])
    expect(left).not.toContain(models[0])
  })

  it('finds tickets by part of their number or of their owner’s username', async () => {
    await signInAdmin()
    const owner = await quickUser(ctx)
    const other = await quickUser(ctx)
    const mine = await ctx.call(ticketEndpoints.create, { token: owner.token, body: { type: 'other', title: 'mine', content: 'c' } })
    await ctx.call(ticketEndpoints.create, { token: other.token, body: { type: 'other', title: 'theirs', content: 'c' } })
    const found = (q: string) => ctx.call(adminEndpoints.tickets, { token: operator.token, query: { q, pageSize: 100 } }).then((reply) => reply.items.map((t) => t.id))
    expect(await found(owner.username.toUpperCase())).toEqual([mine.id])
    expect(await found(mine.number.toLowerCase())).toEqual([mine.id])
    expect(await found('%')).toEqual([])
  })
})
