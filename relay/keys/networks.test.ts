/**
 * A key limited to some addresses (`allowed_ips`): refused from any other address on every model
 * API the relay serves and on `GET /api/v1/usage`, in each client's own error format, before
 * anything is charged or forwarded; served from a listed address or range, IPv4 and IPv6.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints, type ApiKeyLimits } from '../contract/api-keys.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, noKeyLimits, balanceOf, callRelay, customer, priceModel, type CallOptions, type Customer } from '../../tests/fixtures/proxy.ts'


const body = { model: 'ten-points', max_tokens: 40, messages: [{ role: 'user', content: 'Hi' }] }

/** Every API a key opens, as its clients call it; `format` is how each writes a refusal. */
const apis: { name: string; path: string; options: CallOptions; format: 'anthropic' | 'openai' | 'gemini' | 'envelope' }[] = [
  { name: 'Messages', path: '/v1/messages', options: { body }, format: 'anthropic' },
  { name: 'count_tokens', path: '/v1/messages/count_tokens', options: { body }, format: 'anthropic' },
  { name: 'chat completions', path: '/v1/chat/completions', options: { bearer: true, body }, format: 'openai' },
  { name: 'Responses', path: '/v1/responses', options: { bearer: true, body: { model: 'ten-points', input: 'Hi' } }, format: 'openai' },
  { name: 'models', path: '/v1/models', options: { bearer: true, method: 'GET' }, format: 'openai' },
  {
    name: 'Gemini',
    path: '/v1beta/models/ten-points:generateContent',
    options: { headers: { 'x-goog-api-key': '' }, body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] } },
    format: 'gemini',
  },
  { name: 'usage', path: '/api/v1/usage', options: { bearer: true, method: 'GET' }, format: 'envelope' },
]

describeEachDatabase('API keys limited to addresses', (ctx) => {
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['*'] })
    await priceModel(ctx, { model: 'ten-points', kind: 'fixed', points_per_call: 10 })
  })
  afterEach(() => provider.reset())
  afterAll(() => provider?.close())

  const limiting = (user: Customer, limits: Partial<ApiKeyLimits>) => ({ params: { id: user.keyId }, token: user.token, body: { ...noKeyLimits, ...limits } })
  const setLimits = (user: Customer, limits: Partial<ApiKeyLimits>) => ctx.call(apiKeyEndpoints.limits, limiting(user, limits))
  const call = (user: Customer, api: (typeof apis)[number], ip: string) => {
    const headers = api.format === 'gemini' ? { 'x-goog-api-key': user.key } : undefined
    return callRelay(ctx, api.path, { ...api.options, key: api.format === 'gemini' ? undefined : user.key, headers, ip })
  }

  it('validates the list and reads it back', async () => {
    const user = await customer(ctx, 100)
    for (const bad of [[], ['10.0.0.0/33'], ['256.1.1.1'], ['example.com'], ['10.0.0.1/8/1'], ['2001:db8::/129'], Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`)]) {
      const refused = await ctx.refusal(apiKeyEndpoints.limits, limiting(user, { allowed_ips: bad }))
      expect(refused.status, JSON.stringify(bad)).toBe(400)
    }
    const set = await setLimits(user, { allowed_ips: ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'] })
    expect(set.limits.allowed_ips).toEqual(['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'])
  })

  it('refuses the key from any other address on every API, in its own format, charging and forwarding nothing', async () => {
    const user = await customer(ctx, 100)
    await setLimits(user, { allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] })
    for (const api of apis) {
      for (const ip of ['198.51.100.7', '203.0.114.1', '2001:db9::1']) {
        const refused = await call(user, api, ip)
        expect(refused.status, `${api.name} from ${ip}`).toBe(403)
        /** Every format's refusal, as far as this test reads it. */
        const answer = (await refused.json()) as { message?: string; error: { message?: string; type?: string; code?: string; status?: string; details?: { reason?: string } } }
        const message = api.format === 'envelope' ? answer.message : answer.error.message
        expect(message, `${api.name} from ${ip}`).toContain(ip)
        if (api.format === 'anthropic') expect(answer.error.type).toBe('permission_error')
        if (api.format === 'openai') expect(answer.error.code).toBe('ip_not_allowed')
        if (api.format === 'gemini') expect(answer.error.status).toBe('PERMISSION_DENIED')
        if (api.format === 'envelope') expect(answer.error.details?.reason).toBe('api_key_address_refused')
      }
    }
    expect(provider.received).toHaveLength(0)
    expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 100, frozen_points: 0 }))
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('serves the key from a listed address or range, and from anywhere once the list is cleared', async () => {
    const user = await customer(ctx, 100)
    await setLimits(user, { allowed_ips: ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'] })
    const messages = apis[0]!
    const usage = apis.find((api) => api.name === 'usage')!
    for (const ip of ['203.0.113.200', '198.51.100.7', '::ffff:198.51.100.7', '2001:db8:1::5']) {
      expect((await call(user, messages, ip)).status, ip).toBe(200)
      expect((await call(user, usage, ip)).status, ip).toBe(200)
    }
    expect((await call(user, messages, '192.0.2.1')).status).toBe(403)
    await setLimits(user, { allowed_ips: null })
    expect((await call(user, messages, '192.0.2.1')).status).toBe(200)
    await expectLedgerInvariants(ctx.relay.db)
  })
})
