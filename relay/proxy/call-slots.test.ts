import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, callRelay, customer, priceModel, settled } from '../../tests/fixtures/proxy.ts'

const metricsToken = 'call-slots-metrics-token'
const limit = 3
const perUser = 2

describeEachDatabase(
  'calls one relay process answers at once (MAX_STREAMS_PER_PROCESS, MAX_STREAMS_PER_USER)',
  (ctx) => {
    let provider: FakeProvider

    beforeAll(async () => {
      provider = await startFakeProvider()
      await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['slot-*'] })
      await addTestProvider(ctx, { kind: 'openai', baseUrl: `${provider.url}/v1`, models: ['slot-*'] })
      await priceModel(ctx, { model: 'slot-model', kind: 'fixed', points_per_call: 1 })
    })
    afterAll(() => provider?.close())

    const refusals = async (reason: string) => {
      const text = (await ctx.request('GET', '/metrics', { headers: { authorization: `Bearer ${metricsToken}` } })).text
      return Number(text.match(new RegExp(`^relay_refusals_total\\{reason="${reason}"\\} (\\d+)`, 'm'))?.[1] ?? 0)
    }

    it("refuses a call past a user's limit with a 429 and past the process's with a 503, in each client format, and passes calls under them", async () => {
      const [user, other] = [await customer(ctx, 100), await customer(ctx, 100)]
      const [busyBefore, userBefore] = [await refusals('relay_busy'), await refusals('user_streams_limited')]
      let open!: () => void
      provider.behaviour = { kind: 'gate', open: new Promise<void>((resolve) => (open = resolve)) }
      const stream = { model: 'slot-model', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hi' }] }
      const held = Array.from({ length: perUser }, () => callRelay(ctx, '/v1/messages', { key: user.key, body: stream }))
      await expect.poll(() => provider.inFlight, { timeout: 10_000 }).toBe(perUser)

      // The first user holds its two: its next call waits for one of them.
      const own = await callRelay(ctx, '/v1/messages', { key: user.key, body: stream })
      expect(own.status).toBe(429)
      expect(own.headers.get('retry-after')).toBe('1')
      // Each refusal names its request (proxy/request-id.ts).
      const id = (reply: Response) => ` (request id ${reply.headers.get('x-relay-request-id')})`
      expect(await own.json()).toEqual({
        type: 'error',
        error: { type: 'rate_limit_error', message: `This account already has ${perUser} calls in flight on this relay process, its limit (MAX_STREAMS_PER_USER): wait for one to end.${id(own)}` },
      })
      // Another user's call takes the process's last slot.
      held.push(callRelay(ctx, '/v1/messages', { key: other.key, body: stream }))
      await expect.poll(() => provider.inFlight, { timeout: 10_000 }).toBe(limit)

      const anthropic = await callRelay(ctx, '/v1/messages', { key: user.key, body: stream })
      const chat = await callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body: stream })
      const responses = await callRelay(ctx, '/v1/responses', { key: user.key, bearer: true, body: { model: 'slot-model', input: 'Hi', stream: true } })
      for (const refused of [anthropic, chat, responses]) {
        expect(refused.status).toBe(503)
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(refused.headers.get('x-should-retry')).toBeNull()
      }
      const message = `This relay process is answering as many calls as it may at once (${limit}, MAX_STREAMS_PER_PROCESS): try again in a few seconds.`
      expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: `${message}${id(anthropic)}` } })
      for (const refused of [chat, responses]) expect(await refused.json()).toEqual({ error: { message: `${message}${id(refused)}`, type: 'server_error', param: null, code: 'relay_busy' } })
      // Refused before the provider was asked, and counted as such.
      expect(provider.inFlight).toBe(limit)
      expect([await refusals('relay_busy'), await refusals('user_streams_limited')]).toEqual([busyBefore + 3, userBefore + 1])

      open()
      for (const reply of await Promise.all(held)) {
        expect(reply.status).toBe(200)
        expect(await reply.text()).toContain('message_stop')
      }
      // The ended calls gave their slots back.
      provider.reset()
      const after = await Promise.all(Array.from({ length: perUser }, () => callRelay(ctx, '/v1/messages', { key: user.key, body: stream })))
      for (const reply of after) {
        expect(reply.status).toBe(200)
        expect(await reply.text()).toContain('message_stop')
      }
      await settled(ctx, user.id, 2 * perUser)
      await settled(ctx, other.id, 1)
      await expectLedgerInvariants(ctx.relay.db)
    })
  },
  { maxStreamsPerProcess: limit, maxStreamsPerUser: perUser, metricsToken },
)
