import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { answerPieces, defaultFakeUsage, startFakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { addTestProvider, callRelay, customer, pointPerToken, priceModel } from '../../tests/fixtures/proxy.ts'
import { startRelay } from '../index.ts'
import { createLogger } from '../logger.ts'
import { tokensOfBytes } from './usage-meter.ts'

const model = 'claude-draining'
const streamed = { model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hello' }] }

describeEachDatabase('a relay finishing its calls before it stops', (ctx) => {
  it('refuses new calls in each client\'s format and its health check, and lets the calls in flight end', async () => {
    const provider = await startFakeProvider()
    try {
      await priceModel(ctx, pointPerToken(model))
      await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: [model] })
      const user = await customer(ctx, 100_000)
      let resume!: () => void
      provider.queue({ kind: 'pause', afterEvents: 3, resume: new Promise((resolve) => (resume = resolve)) })
      const inFlight = await callRelay(ctx, '/v1/messages', { key: user.key, body: streamed })
      expect(inFlight.status).toBe(200)
      let finished = false
      const finishing = ctx.relay.finishCalls(60_000).then(() => (finished = true))

      const anthropic = await callRelay(ctx, '/v1/messages', { key: user.key, body: streamed })
      expect(anthropic.status).toBe(503)
      expect(anthropic.headers.get('retry-after')).toBe('1')
      expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('restarting') } })
      const openAi = await callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body: { model, messages: [] } })
      expect([openAi.status, (await openAi.json()).error.code]).toEqual([503, 'service_unavailable'])
      const gemini = await callRelay(ctx, `/v1beta/models/${model}:generateContent`, { key: user.key, body: {} })
      expect([gemini.status, (await gemini.json()).error.status]).toEqual([503, 'UNAVAILABLE'])
      // Raw: the typed call throws a 503 as the relay being down, not as a refusal to read.
      const health = await ctx.request('GET', '/api/health')
      expect([health.status, health.body.error.details.reason]).toEqual([503, 'unavailable'])
      expect(provider.received).toHaveLength(1)

      expect(finished).toBe(false)
      resume()
      expect(await inFlight.text()).toContain('message_stop')
      await finishing
      await ctx.relay.drainSettlements()
      const calls = await ctx.relay.db.selectFrom('proxy_calls').select(['outcome', 'points']).where('user_id', '=', user.id).execute()
      expect(calls).toEqual([{ outcome: 'completed', points: 160 }])
      await expectLedgerInvariants(ctx.relay.db)
    } finally {
      await provider.close()
    }
  })

  it('past the grace cuts the calls left, each charged what it delivered', async () => {
    const provider = await startFakeProvider()
    const lines: string[] = []
    const relay = await startRelay({ ...ctx.config, instance: 'draining-cut' }, { clock: ctx.clock, logger: createLogger('warn', (line) => lines.push(line)) })
    try {
      await priceModel(ctx, pointPerToken(`${model}-cut`))
      await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: [`${model}-cut`] })
      const user = await customer(ctx, 100_000)
      provider.queue({ kind: 'pause', afterEvents: 4, resume: new Promise(() => {}) })
      const inFlight = await relay.fetch(
        new Request('http://relay.test/v1/messages', {
          method: 'POST',
          headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
          body: JSON.stringify({ ...streamed, model: `${model}-cut` }),
        }),
        { clientIp: '192.0.2.7' },
      )
      expect(inFlight.status).toBe(200)
      await relay.finishCalls(50)
      await expect(inFlight.text()).rejects.toThrow()
      await relay.drainSettlements()
      const calls = await relay.db.selectFrom('proxy_calls').select(['outcome', 'points']).where('user_id', '=', user.id).execute()
      // The input (message_start) and the output its first piece of text makes, at a point per token.
      expect(calls).toEqual([{ outcome: 'cut', points: defaultFakeUsage.input_tokens + tokensOfBytes(Buffer.byteLength(answerPieces()[0]!)) }])
      expect(lines).toEqual([expect.stringContaining('calls cut at the end of the shutdown grace, each charged what it delivered cut=1 graceMs=50')])
      await expectLedgerInvariants(relay.db)
    } finally {
      await relay.close()
      await provider.close()
    }
  })
})
