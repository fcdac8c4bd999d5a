import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, balanceOf, callRelay, customer, priceModel, settled, type Customer } from '../../tests/fixtures/proxy.ts'

/**
 * A key's metered calls on PostgreSQL authenticate from the process's cache (keys/service.ts,
 * docs/decisions/108-money-rules-on-postgres.md). A change made elsewhere — another relay, the operator CLI — is written
 * straight to the database here, which this process hears nothing of.
 */
describeEachDatabase('API keys changed by another process', (ctx) => {
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['*'] })
    await priceModel(ctx, { model: 'ten-points', kind: 'fixed', points_per_call: 10 })
    await priceModel(ctx, { model: 'free-points', kind: 'fixed', points_per_call: 0 })
  })
  afterEach(() => provider.reset())
  afterAll(() => provider?.close())

  const message = (user: Customer, model = 'ten-points') =>
    callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 40, messages: [{ role: 'user', content: 'Hi' }] } })
  // Read from the database: a disabled user's token no longer reads it through the API.
  // The balance (the sum of the user's ledger rows) and the holds left open, read from the
  // database: a disabled user's token no longer reads them through the API.
  const balanceAndOpenHolds = async (user: Customer) => {
    const { balance } = await ctx.relay.db.selectFrom('points_ledger').select((eb) => eb.fn.sum<number>('change').as('balance')).where('user_id', '=', user.id).executeTakeFirstOrThrow()
    const open = await ctx.relay.db.selectFrom('points_holds').select('id').where('user_id', '=', user.id).where('settled_timestamp', 'is', null).execute()
    return [Number(balance), open.length]
  }
  const keyRow = (user: Customer) => ctx.relay.db.updateTable('api_keys').where('id', '=', user.keyId)

  /** `recorded`: a key switched off or expired is still its owner's, so its refusals are their calls. */
  const elsewhere: Array<{ change: string; make: (user: Customer) => Promise<unknown>; refusal: string; recorded: boolean }> = [
    { change: 'key deleted', make: (user) => keyRow(user).set({ deleted_at: ctx.clock.now() }).execute(), refusal: 'Invalid API key', recorded: false },
    { change: 'key disabled', make: (user) => keyRow(user).set({ disabled_timestamp: ctx.clock.now() }).execute(), refusal: 'This API key is disabled', recorded: true },
    { change: 'key expired', make: (user) => keyRow(user).set({ expires_timestamp: ctx.clock.now() }).execute(), refusal: 'This API key has expired', recorded: true },
    {
      change: 'user disabled',
      make: (user) => ctx.relay.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute(),
      refusal: 'Invalid API key',
      recorded: false,
    },
  ]

  for (const { change, make, refusal, recorded } of elsewhere) {
    it(`stops a key at its very next call, charging nothing, once ${change} elsewhere`, async () => {
      const user = await customer(ctx, 1000)
      // Twice: the second call is served from the cache where there is one.
      for (const model of ['ten-points', 'ten-points', 'free-points']) expect((await message(user, model)).status).toBe(200)
      await settled(ctx, user.id, 3)
      const forwarded = provider.received.length
      await make(user)
      const ids: string[] = []
      for (const model of ['ten-points', 'free-points']) {
        const refused = await message(user, model)
        ids.push(refused.headers.get('x-relay-request-id')!)
        expect(refused.status, model).toBe(401)
        expect((await refused.json()).error).toEqual({ type: 'authentication_error', message: expect.stringContaining(refusal) })
      }
      expect(provider.received.length).toBe(forwarded)
      // Nothing frozen; the refusals recorded as for a key refused when read, under the request
      // ids the client got: a recorded refusal would be waiting in the settlement group, written now.
      await ctx.relay.drainSettlements()
      await settled(ctx, user.id, 3, recorded ? 2 : 0)
      const refusals = await ctx.relay.db.selectFrom('proxy_calls').select(['id', 'refusal', 'key_id']).where('user_id', '=', user.id).where('outcome', '=', 'refused').orderBy('id').execute()
      expect(refusals).toEqual(recorded ? ids.map((id) => ({ id, refusal: 'key_disabled', key_id: user.keyId })) : [])
      expect(await balanceAndOpenHolds(user)).toEqual([980, 0])
      await expectLedgerInvariants(ctx.relay.db)
    })
  }

  it("takes the key's other controls set elsewhere within five seconds, and at once when set through this process", async () => {
    const user = await customer(ctx, 1000)
    expect((await message(user)).status).toBe(200)
    await keyRow(user).set({ allowed_models: JSON.stringify(['free-*']) }).execute()
    ctx.clock.advance(5_000)
    expect((await message(user)).status).toBe(403)
    expect((await message(user, 'free-points')).status).toBe(200)

    await ctx.call(apiKeyEndpoints.limits, {
      params: { id: user.keyId },
      token: user.token,
      body: { enabled: true, expires_timestamp: null, points_quota: null, daily_points_quota: null, allowed_models: ['ten-*'], rpm_limit: null, concurrency_limit: null },
    })
    expect((await message(user, 'free-points')).status).toBe(403)
    expect((await message(user)).status).toBe(200)
    await settled(ctx, user.id, 3, 2)
    expect((await balanceOf(ctx, user.token)).balance).toBe(980)
    await expectLedgerInvariants(ctx.relay.db)
  })
})
