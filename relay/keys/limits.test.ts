import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints, type ApiKeyLimits } from '../contract/api-keys.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, noKeyLimits, balanceOf, callRelay, callsAtOnce, customer, expectRefusedUntilTomorrow, pointPerToken, priceModel, settled, type Customer } from '../../tests/fixtures/proxy.ts'


describeEachDatabase('API key limits', (ctx) => {
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['*'] })
    await addTestProvider(ctx, { kind: 'openai', baseUrl: provider.url, models: ['*'] })
    await priceModel(ctx, { model: 'ten-points', kind: 'fixed', points_per_call: 10 })
    await priceModel(ctx, { model: 'one-point', kind: 'fixed', points_per_call: 1 })
    await priceModel(ctx, { model: 'five-points', kind: 'fixed', points_per_call: 5 })
    await priceModel(ctx, pointPerToken('per-token'))
    await priceModel(ctx, { model: 'claude-haiku-9', kind: 'fixed', points_per_call: 1 })
    await priceModel(ctx, { model: 'claude-opus-9', kind: 'fixed', points_per_call: 1 })
  })
  afterEach(() => provider.reset())
  afterAll(() => provider?.close())

  const limiting = (user: Customer, limits: Partial<ApiKeyLimits>, keyId = user.keyId, token = user.token) => ({ params: { id: keyId }, token, body: { ...noKeyLimits, ...limits } })
  const setLimits = (...args: Parameters<typeof limiting>) => ctx.call(apiKeyEndpoints.limits, limiting(...args))
  const limitsRefused = (...args: Parameters<typeof limiting>) => ctx.refusal(apiKeyEndpoints.limits, limiting(...args))
  const message = (user: Customer, model = 'ten-points') =>
    callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 40, messages: [{ role: 'user', content: 'Hi' }] } })
  const chat = (user: Customer, model = 'ten-points') =>
    callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body: { model, messages: [{ role: 'user', content: 'Hi' }] } })
  const keyOf = async (user: Customer) => (await ctx.call(apiKeyEndpoints.list, { token: user.token })).items[0]!

  it('lets only the owner set limits, validates them and lists them with the use', async () => {
    const user = await customer(ctx, 1000)
    const other = await customer(ctx, 1000)
    const limits = { points_quota: 500, daily_points_quota: 100, allowed_models: ['claude-*'], rpm_limit: 60, concurrency_limit: 2, expires_timestamp: ctx.clock.now() + 86_400_000 }
    const set = await setLimits(user, limits)
    expect(set.limits).toEqual({ ...noKeyLimits, ...limits })
    expect((await keyOf(user)).limits).toEqual({ ...noKeyLimits, ...limits })

    const foreign = await limitsRefused(other, { rpm_limit: 1 }, user.keyId)
    expect(foreign.status).toBe(404)
    expect((await keyOf(user)).limits.rpm_limit).toBe(60)

    for (const bad of [{ rpm_limit: 0 }, { concurrency_limit: -1 }, { points_quota: 1.5 }, { allowed_models: [] }, { allowed_models: ['bad model'] }]) {
      const refused = await limitsRefused(user, bad)
      expect(refused.status, JSON.stringify(bad)).toBe(400)
      expect(refused.reason).toBe('validation')
    }
    // An expiry that has passed would end the key under a success answer.
    for (const past of [ctx.clock.now(), ctx.clock.now() - 86_400_000]) {
      const refused = await limitsRefused(user, { expires_timestamp: past })
      expect(refused.status).toBe(422)
      expect(refused.reason).toBe('api_key_expiry_past')
    }
    expect((await keyOf(user)).limits.expires_timestamp).toBe(limits.expires_timestamp)

    await message(user, 'claude-haiku-9')
    await settled(ctx, user.id, 1)
    expect((await keyOf(user)).use).toEqual({ points_used: 1, day_points_used: 1, minute_calls: 1, in_flight: 0 })
  })

  it('refuses a disabled or expired key as an unknown one, in each client format, until it is enabled again', async () => {
    const user = await customer(ctx, 1000)
    await setLimits(user, { enabled: false })
    for (const reply of [await message(user), await chat(user)]) {
      expect(reply.status).toBe(401)
      expect(reply.headers.get('x-should-retry')).toBe('false')
      expect(await reply.text()).toContain('This API key is disabled')
    }
    expect((await callRelay(ctx, '/v1/models', { key: user.key, method: 'GET' })).status).toBe(401)
    const usage = await ctx.refusal(apiKeyEndpoints.usage, { headers: { 'x-api-key': user.key } })
    expect([usage.status, usage.reason]).toEqual([401, 'api_key_disabled'])

    await setLimits(user, { expires_timestamp: ctx.clock.now() + 60_000 })
    expect((await message(user)).status).toBe(200)
    ctx.clock.advance(60_000)
    const expired = await message(user)
    expect(expired.status).toBe(401)
    expect((await expired.json()).error).toEqual({ type: 'authentication_error', message: expect.stringContaining('This API key has expired') })
    await settled(ctx, user.id, 1)
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('refuses a model outside the allowed patterns with 403, lists only allowed models and records the refusal', async () => {
    const user = await customer(ctx, 1000)
    await setLimits(user, { allowed_models: ['CLAUDE-haiku-9*'] })
    expect((await message(user, 'claude-haiku-9')).status).toBe(200)
    const refused = await message(user, 'claude-opus-9')
    expect(refused.status).toBe(403)
    expect((await refused.json()).error).toEqual({ type: 'permission_error', message: expect.stringContaining('may not call claude-opus-9') })
    const openai = await chat(user, 'claude-opus-9')
    expect(openai.status).toBe(403)
    expect((await openai.json()).error.code).toBe('model_not_allowed')
    const counted = await callRelay(ctx, '/v1/messages/count_tokens', { key: user.key, body: { model: 'claude-opus-9', messages: [] } })
    expect(counted.status).toBe(403)

    const models = await (await callRelay(ctx, '/v1/models', { key: user.key, method: 'GET', headers: { 'anthropic-version': '2023-06-01' } })).json()
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(['claude-haiku-9'])

    await settled(ctx, user.id, 1, 3)
    const calls = await ctx.relay.db.selectFrom('proxy_calls').select(['model', 'outcome', 'status', 'refusal', 'points']).where('user_id', '=', user.id).orderBy('outcome').execute()
    expect(calls).toEqual([
      { model: 'claude-haiku-9', outcome: 'completed', status: 200, refusal: null, points: 1 },
      { model: 'claude-opus-9', outcome: 'refused', status: 403, refusal: 'model_not_allowed', points: 0 },
      { model: 'claude-opus-9', outcome: 'refused', status: 403, refusal: 'model_not_allowed', points: 0 },
      { model: 'claude-opus-9', outcome: 'refused', status: 403, refusal: 'model_not_allowed', points: 0 },
    ])
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('keeps at most 3 of 50 parallel calls in flight and refuses the rest with 429', async () => {
    const user = await customer(ctx, 1000)
    await setLimits(user, { concurrency_limit: 3 })
    let open!: () => void
    provider.behaviour = { kind: 'gate', open: new Promise<void>((resolve) => (open = resolve)) }
    provider.maxInFlight = 0
    const done: Response[] = []
    const replies = Array.from({ length: 50 }, () => message(user, 'one-point').then((reply) => (done.push(reply), reply)))
    // The refusals answer at once; the three admitted calls wait at the provider.
    await expect.poll(() => done.length, { timeout: 10_000 }).toBe(47)
    await expect.poll(() => provider.inFlight, { timeout: 10_000 }).toBe(3)
    expect(done.every((r) => r.status === 429 && r.headers.get('retry-after') === '1')).toBe(true)
    expect(await done[0]!.text()).toContain('already has 3 calls in flight')
    expect((await keyOf(user)).use.in_flight).toBe(3)
    open()
    const all = await Promise.all(replies)
    expect(all.filter((r) => r.status === 200)).toHaveLength(3)
    expect(provider.maxInFlight).toBe(3)
    await Promise.all(all.filter((r) => r.status === 200).map((r) => r.text()))
    // A key's refusals past 30 a minute are answered but not recorded (proxy/refusal-budget.ts).
    await settled(ctx, user.id, 3, 30)
    expect((await keyOf(user)).use.in_flight).toBe(0)
    expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 997, frozen_points: 0 })
    // The slots are free again.
    expect((await message(user, 'one-point')).status).toBe(200)
    await settled(ctx, user.id, 4)
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('limits requests per minute with a Retry-After until the oldest call leaves the minute', async () => {
    const user = await customer(ctx, 1000)
    await setLimits(user, { rpm_limit: 2 })
    expect((await message(user)).status).toBe(200)
    ctx.clock.advance(20_000)
    expect((await chat(user)).status).toBe(200)
    ctx.clock.advance(10_000)
    const refused = await message(user)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('30')
    expect(refused.headers.get('x-should-retry')).toBeNull()
    expect((await refused.json()).error.type).toBe('rate_limit_error')
    await settled(ctx, user.id, 2, 1)
    ctx.clock.advance(30_000)
    expect((await message(user)).status).toBe(200)
    await settled(ctx, user.id, 3, 1)
    expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 970 })
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('keeps a key within its points quota, total and per day: a call that could pass it is refused up front', async () => {
    const user = await customer(ctx, 1000)
    await setLimits(user, { points_quota: 25 })
    for (let i = 0; i < 2; i++) {
      expect((await message(user)).status).toBe(200)
      await settled(ctx, user.id, i + 1)
    }
    // 5 points left: a ten-point call would pass the quota, one-point calls fit until none is left.
    const tooBig = await message(user)
    expect(tooBig.status).toBe(429)
    expect(tooBig.headers.get('x-should-retry')).toBe('false')
    expect(await tooBig.text()).toContain('has 5 points left of its quota of 25 points, and this call needs 10')
    for (let i = 0; i < 5; i++) expect((await message(user, 'one-point')).status).toBe(200)
    const spent = await message(user, 'one-point')
    expect(spent.status).toBe(429)
    expect(await spent.text()).toContain('has used its quota of 25 points')
    await settled(ctx, user.id, 7, 2)
    expect((await keyOf(user)).use.points_used).toBe(25)

    // A day's quota comes back the next day (UTC+8).
    await setLimits(user, { daily_points_quota: 40 })
    expect((await message(user)).status).toBe(200)
    await settled(ctx, user.id, 8, 2)
    expect(await (await message(user)).text()).toContain("has 5 points left of today's quota of 40 points")
    await expectRefusedUntilTomorrow(ctx, () => message(user))
    await settled(ctx, user.id, 9, 4)
    expect((await keyOf(user)).use).toMatchObject({ points_used: 45, day_points_used: 10 })
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('counts calls in flight against the quota: of 20 parallel calls, only those whose points fit run', async () => {
    const ones = await customer(ctx, 1000)
    await setLimits(ones, { points_quota: 5 })
    const all = await callsAtOnce(provider, 20, 5, () => message(ones, 'one-point'))
    expect(all.filter((r) => r.status === 200)).toHaveLength(5)
    await Promise.all(all.map((r) => r.text()))
    await settled(ctx, ones.id, 5, 15)
    expect((await keyOf(ones)).use.points_used).toBe(5)

    // Five-point calls under a quota of 12: two run (10 points), the third would make 15.
    const fives = await customer(ctx, 1000)
    await setLimits(fives, { points_quota: 12 })
    const five = await callsAtOnce(provider, 20, 2, () => message(fives, 'five-points'))
    expect(five.filter((r) => r.status === 200)).toHaveLength(2)
    expect(five.filter((r) => r.status === 429)).toHaveLength(18)
    await Promise.all(five.map((r) => r.text()))
    await settled(ctx, fives.id, 2, 18)
    expect((await keyOf(fives)).use.points_used).toBe(10)
    await expectLedgerInvariants(ctx.relay.db)
  })

  it("measures a token-priced call by its hold: refused when the hold passes what is left, counted at what it cost", async () => {
    const user = await customer(ctx, 100_000)
    await setLimits(user, { points_quota: 1000 })
    const ask = (maxTokens: number) =>
      callRelay(ctx, '/v1/messages', { key: user.key, body: { model: 'per-token', max_tokens: maxTokens, messages: [{ role: 'user', content: 'Hi' }] } })
    const tooBig = await ask(2000)
    expect(tooBig.status).toBe(429)
    expect(await tooBig.text()).toContain('has 1000 points left of its quota of 1000 points, and this call needs')
    // The hold is an estimate: the counters take what the usage cost (120 in, 40 out).
    expect((await ask(100)).status).toBe(200)
    await settled(ctx, user.id, 1, 1)
    expect((await keyOf(user)).use.points_used).toBe(160)
    await expectLedgerInvariants(ctx.relay.db)
  })
})
