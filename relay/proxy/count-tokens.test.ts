import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, callRelay, customer, customerWithoutPackage, ledgerOf, priceModel, settled, type Customer } from '../../tests/fixtures/proxy.ts'

describeEachDatabase('count_tokens under the rules of a call', (ctx) => {
  let provider: FakeProvider
  const count = (user: Customer) => callRelay(ctx, '/v1/messages/count_tokens', { key: user.key, body: { model: 'count-model', messages: [{ role: 'user', content: 'Hi' }] } })
  const calls = (user: Customer) => ctx.relay.db.selectFrom('proxy_calls').select(['model', 'outcome', 'status', 'points', 'refusal']).where('user_id', '=', user.id).orderBy('create_timestamp').orderBy('id').execute()

  beforeAll(async () => {
    provider = await startFakeProvider()
    await priceModel(ctx, { model: 'count-model', kind: 'variable', input_points_per_mtok: 300, output_points_per_mtok: 1500 })
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['count-model'] })
  })
  afterAll(async () => provider?.close())
  afterEach(async () => {
    provider.reset()
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('refuses a user without a package before the provider is reached, and records the refusal', async () => {
    const user = await customerWithoutPackage(ctx)
    const before = provider.received.length
    const refused = await count(user)
    expect(refused.status).toBe(403)
    expect((await refused.json()).error.message).toContain('No package')
    expect(provider.received.length).toBe(before)
    await settled(ctx, user.id, 0, 1)
    expect(await calls(user)).toEqual([{ model: 'count-model', outcome: 'refused', status: 403, points: 0, refusal: 'no_subscription' }])
  })

  it('records every count with 0 points, and holds a key to its requests per minute', async () => {
    const user = await customer(ctx, 100)
    await ctx.call(apiKeyEndpoints.limits, {
      params: { id: user.keyId },
      token: user.token,
      body: { enabled: true, expires_timestamp: null, points_quota: null, daily_points_quota: null, allowed_models: null, rpm_limit: 2, concurrency_limit: null },
    })
    const before = provider.received.length
    for (let i = 0; i < 2; i++) {
      const counted = await count(user)
      expect(counted.status).toBe(200)
      expect(await counted.json()).toEqual({ input_tokens: 120 })
    }
    const third = await count(user)
    expect(third.status).toBe(429)
    await third.text()
    expect(provider.received.length).toBe(before + 2)
    await settled(ctx, user.id, 2, 1)
    expect((await calls(user)).map((call) => [call.outcome, call.status, call.points])).toEqual([
      ['completed', 200, 0],
      ['completed', 200, 0],
      ['refused', 429, 0],
    ])
    // Nothing was frozen or taken.
    expect(await ledgerOf(ctx, user.id)).toEqual([])
  })
})
