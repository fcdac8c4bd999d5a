import http from 'node:http'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { answerPieces, defaultFakeUsage, fakeProviderSecret, startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { unusedPort } from '../../tests/fixtures/ports.ts'
import { addTestProvider, balanceOf, callRelay, customer, customerWithoutPackage, ledgerOf, priceModel, settled, withRequestId } from '../../tests/fixtures/proxy.ts'
import { serveRelay } from '../../tests/fixtures/serve-relay.ts'
import { pointsForUsage } from '../points/model-costs.ts'
import { tokensOfBytes } from './usage-meter.ts'

const fixed = { model: 'fixed-model', kind: 'fixed', points_per_call: 5 } as const
// Large rates so that the fake's small usage (120 in, 40 out) costs whole points.
const variable = { model: 'var-model', kind: 'variable', input_points_per_mtok: 100_000, output_points_per_mtok: 500_000 } as const
const variableCost = { ...variable, points_per_call: null, cache_read_points_per_mtok: null, cache_write_points_per_mtok: null, description: null }
const usageCost = pointsForUsage(variableCost, defaultFakeUsage)

const decoder = new TextDecoder()

/**
 * The rows of one answered fixed-price call: its price held before the call (a row in the
 * database from the start, so a relay lost mid-call leaves it to the stale-hold sweep), then
 * settled: the hold given back and the price consumed.
 */
function heldCall(model: string, points: number) {
  const row = (type: string, change: number) => ({ type, change, model, hold_id: expect.any(String) })
  return [row('frozen', -points), row('unfrozen', points), row('consumed', -points)]
}

describeEachDatabase(
  'metered relay',
  (ctx) => {
    let primary: FakeProvider
    let backup: FakeProvider

    beforeAll(async () => {
      ;[primary, backup] = await Promise.all([startFakeProvider(), startFakeProvider()])
      await priceModel(ctx, fixed)
      await priceModel(ctx, variable)
      await priceModel(ctx, { ...fixed, model: 'fo-fixed' })
      await addTestProvider(ctx, { kind: 'anthropic', baseUrl: primary.url, models: ['fixed-*', 'var-*'] })
      await addTestProvider(ctx, { kind: 'openai', baseUrl: `${primary.url}/v1`, models: ['*'] })
    })
    afterAll(async () => {
      await primary?.close()
      await backup?.close()
    })
    afterEach(async () => {
      primary.reset()
      backup.reset()
      await expectLedgerInvariants(ctx.relay.db)
    })

    const messages = (model: string, extra: Record<string, unknown> = {}) => ({
      model,
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'Hello' }],
      ...extra,
    })
    // The same body suits both APIs.
    const chat = messages
    const callsOf = (userId: string) =>
      ctx.relay.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', userId).orderBy('id').execute()

    it('charges a fixed-cost call exactly once, before forwarding, and passes the answer on unchanged', async () => {
      const user = await customer(ctx, 100)
      const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fixed-model') })
      expect(response.status).toBe(200)
      const text = await response.text()
      expect(text).toBe(primary.received.at(-1)!.sent.toString('utf8'))
      expect(JSON.parse(text)).toMatchObject({ type: 'message', content: [{ type: 'text', text: answerPieces().join('') }] })
      await settled(ctx, user.id, 1)

      expect(await ledgerOf(ctx, user.id)).toEqual(heldCall('fixed-model', 5))
      expect((await balanceOf(ctx, user.token)).balance).toBe(95)
      expect(await callsOf(user.id)).toMatchObject([
        {
          key_id: user.keyId,
          api: 'anthropic',
          model: 'fixed-model',
          streamed: 0,
          outcome: 'completed',
          status: 200,
          input_tokens: 120,
          output_tokens: 40,
          points: 5,
          client_ip: '192.0.2.7',
          create_timestamp: ctx.clock.now(),
        },
      ])
      const keys = await ctx.call(apiKeyEndpoints.list, { token: user.token })
      expect(keys.items[0]?.last_used_timestamp).toBe(ctx.clock.now())
    })

    it('freezes an estimate for a variable-cost stream, then settles it from the usage in the events; the bytes pass unchanged', async () => {
      const user = await customer(ctx, 10_000)
      const body = messages('var-model', { stream: true })
      const response = await callRelay(ctx, '/v1/messages?beta=true', { key: user.key, bearer: true, body })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      const bytes = new Uint8Array(await response.arrayBuffer())
      const received = primary.received.at(-1)!
      expect(Buffer.from(bytes).equals(received.sent)).toBe(true)
      expect(received.url).toBe('/v1/messages?beta=true')
      await settled(ctx, user.id, 1)

      const estimate = pointsForUsage(variableCost, { input_tokens: tokensOfBytes(JSON.stringify(body).length), output_tokens: 1000 })
      const rows = await ledgerOf(ctx, user.id)
      expect(rows.map(({ type, change, model }) => ({ type, change, model }))).toEqual([
        { type: 'frozen', change: -estimate, model: 'var-model' },
        { type: 'unfrozen', change: estimate, model: 'var-model' },
        { type: 'consumed', change: -usageCost, model: 'var-model' },
      ])
      expect(new Set(rows.map((r) => r.hold_id)).size).toBe(1)
      expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 10_000 - usageCost, frozen_points: 0 })
      // The points history and the usage chart read these rows.
      const history = await ctx.call(pointsEndpoints.history, { token: user.token })
      expect(history.items[0]).toMatchObject({ type: 'consumed', change: -usageCost, model: 'var-model' })
    })

    it('asks an OpenAI stream for its usage and keeps that chunk from a client that did not ask for it', async () => {
      const user = await customer(ctx, 10_000)
      const response = await callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body: chat('var-model', { stream: true }) })
      expect(response.status).toBe(200)
      const text = await response.text()
      const received = primary.received.at(-1)!
      expect(received.url).toBe('/v1/chat/completions')
      expect(received.body.stream_options).toEqual({ include_usage: true })
      const sent = received.sent.toString('utf8').split('\n\n')
      const usageChunk = sent.findIndex((event) => event.includes('"choices":[]'))
      expect(usageChunk).toBeGreaterThan(0)
      expect(text).toBe(sent.filter((_, i) => i !== usageChunk).join('\n\n'))
      expect(text).toContain('data: [DONE]')
      await settled(ctx, user.id, 1)
      expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -usageCost })
    })

    it('passes an OpenAI stream through byte for byte when the client asked for usage itself', async () => {
      const user = await customer(ctx, 10_000)
      const body = chat('var-model', { stream: true, stream_options: { include_usage: true } })
      const response = await callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body })
      const bytes = Buffer.from(await response.arrayBuffer())
      const received = primary.received.at(-1)!
      expect(received.body).toEqual(body)
      expect(bytes.equals(received.sent)).toBe(true)
      await settled(ctx, user.id, 1)
      expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -usageCost })
    })

    it('charges a whole OpenAI answer from its usage, cached prompt tokens at their own rate', async () => {
      await priceModel(ctx, { model: 'cached-model', kind: 'variable', input_points_per_mtok: 1_000_000, output_points_per_mtok: 1_000_000, cache_read_points_per_mtok: 0 })
      const user = await customer(ctx, 10_000)
      primary.queue({ kind: 'answer', usage: { input_tokens: 10, cache_read_tokens: 500, output_tokens: 7 } })
      const response = await callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body: chat('cached-model') })
      expect(await response.json()).toMatchObject({ object: 'chat.completion', usage: { prompt_tokens: 510, completion_tokens: 7 } })
      await settled(ctx, user.id, 1)
      expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -17, model: 'cached-model' })
      expect((await callsOf(user.id))[0]).toMatchObject({ api: 'openai', input_tokens: 10, cache_read_tokens: 500, output_tokens: 7, points: 17 })
    })

    it('gives the points back when the provider fails before answering, and never passes its error body on', async () => {
      const user = await customer(ctx, 10_000)
      primary.queue({ kind: 'fail', status: 500 })
      const failedFixed = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fixed-model') })
      expect(failedFixed.status).toBe(502)
      expect(await failedFixed.json()).toEqual({ type: 'error', error: { type: 'api_error', message: withRequestId(failedFixed, 'The upstream provider failed (status 500).') } })
      await settled(ctx, user.id, 1)

      primary.queue({ kind: 'fail', status: 401 })
      const failedVariable = await callRelay(ctx, '/v1/chat/completions', { key: user.key, bearer: true, body: chat('var-model') })
      expect(failedVariable.status).toBe(502)
      const text = await failedVariable.text()
      expect(text).not.toContain(fakeProviderSecret)
      expect(JSON.parse(text)).toEqual({
        error: { message: withRequestId(failedVariable, 'The upstream provider failed (status 401).'), type: 'server_error', param: null, code: 'upstream_error' },
      })
      await settled(ctx, user.id, 2)

      const rows = await ledgerOf(ctx, user.id)
      expect(rows.map(({ type, change }) => ({ type, change }))).toEqual([
        // The fixed price held, then given back in full: no answer came.
        { type: 'frozen', change: -5 },
        { type: 'unfrozen', change: 5 },
        { type: 'frozen', change: rows[2]!.change },
        { type: 'unfrozen', change: -rows[2]!.change },
      ])
      expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 10_000, frozen_points: 0 })
      expect((await callsOf(user.id)).map((c) => [c.outcome, c.status, c.points])).toEqual([
        ['failed', 502, 0],
        ['failed', 502, 0],
      ])
    })

    it("passes the provider's refusal of the request itself on, and charges nothing", async () => {
      const user = await customer(ctx, 100)
      primary.queue({ kind: 'fail', status: 400 })
      const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fixed-model') })
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'fake failure 400' } })
      await settled(ctx, user.id, 1)
      expect((await balanceOf(ctx, user.token)).balance).toBe(100)
      expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'refused', status: 400, points: 0 })
    })

    it('aborts the provider request when the client abandons a stream, and charges the usage known so far', async () => {
      const user = await customer(ctx, 10_000)
      // message_start, content_block_start, ping and two text deltas; then the provider waits.
      primary.queue({ kind: 'hold', afterEvents: 5 })
      const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('var-model', { stream: true }) })
      const reader = response.body!.getReader()
      const [first, second] = answerPieces()
      let seen = ''
      while (!seen.includes(second!)) seen += decoder.decode((await reader.read()).value, { stream: true })
      await reader.cancel()
      expect(await primary.received.at(-1)!.done).toBe('aborted')

      // Input as message_start reported it; output at least what was delivered.
      const delivered = tokensOfBytes(Buffer.byteLength(first! + second!))
      const charged = pointsForUsage(variableCost, { input_tokens: 120, output_tokens: delivered })
      expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -charged })
      expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 10_000 - charged, frozen_points: 0 })
      expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'abandoned', input_tokens: 120, output_tokens: delivered, points: charged })
    })

    it('charges nothing for a call the client abandons before the provider answers', async () => {
      const user = await customer(ctx, 100)
      primary.queue({ kind: 'stall' })
      const controller = new AbortController()
      const before = primary.received.length
      const pending = callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fixed-model'), signal: controller.signal })
      await expect.poll(() => primary.received.length).toBe(before + 1)
      // While the provider thinks, the fixed price is a hold in the database, not a spend kept in
      // memory: a relay that dies now leaves it to the stale-hold sweep, which gives it back.
      const open = await ctx.relay.db.selectFrom('points_holds').select(['amount', 'model']).where('user_id', '=', user.id).where('settled_timestamp', 'is', null).execute()
      expect(open).toEqual([{ amount: 5, model: 'fixed-model' }])
      controller.abort()
      expect((await pending).status).toBe(499)
      expect(await primary.received.at(-1)!.done).toBe('aborted')
      await settled(ctx, user.id, 1)
      expect((await balanceOf(ctx, user.token)).balance).toBe(100)
      expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'abandoned', points: 0 })
    })

    it('served over HTTP, notices a client that hangs up before the provider answers, and charges nothing', async () => {
      const served = await serveRelay(ctx.relay)
      try {
        const user = await customer(ctx, 100)
        primary.queue({ kind: 'stall' })
        const before = primary.received.length
        const body = JSON.stringify(messages('fixed-model'))
        const request = http.request(`${served.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': user.key },
        })
        request.on('error', () => {})
        request.end(body)
        await expect.poll(() => primary.received.length).toBe(before + 1)
        request.destroy()
        expect(await primary.received.at(-1)!.done).toBe('aborted')
        await settled(ctx, user.id, 1)
        expect((await balanceOf(ctx, user.token)).balance).toBe(100)
        expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'abandoned', points: 0 })
      } finally {
        await served.stop()
      }
    })

    it('served over HTTP, passes a whole answer larger than its buffer on unchanged, with its length', async () => {
      const served = await serveRelay(ctx.relay)
      try {
        const user = await customer(ctx, 100)
        // About 2 MB: many more pieces than the relay buffers before it starts answering.
        primary.queue({ kind: 'answer', text: 'x'.repeat(2_000_000) })
        const reply = await fetch(`${served.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': user.key }, body: JSON.stringify(messages('fixed-model')) })
        expect(reply.status).toBe(200)
        const text = await reply.text()
        expect(text).toBe(primary.received.at(-1)!.sent.toString('utf8'))
        expect(text.length).toBeGreaterThan(2_000_000)
        await settled(ctx, user.id, 1)
        expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'completed', points: 5 })
      } finally {
        await served.stop()
      }
    })

    it('breaks off a whole answer the provider cuts in its middle, and records the call as cut', async () => {
      const user = await customer(ctx, 100)
      primary.queue({ kind: 'cut', afterEvents: 0 })
      const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fixed-model') })
      expect(response.status).toBe(200)
      await expect(response.text()).rejects.toThrow()
      await settled(ctx, user.id, 1)
      expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'cut' })
    })

    it('settles a stream the provider cuts by the usage known so far, and breaks the client stream too', async () => {
      const user = await customer(ctx, 10_000)
      primary.queue({ kind: 'cut', afterEvents: 4 })
      const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('var-model', { stream: true }) })
      expect(response.status).toBe(200)
      await expect(response.text()).rejects.toThrow()
      await settled(ctx, user.id, 1)
      const delivered = tokensOfBytes(Buffer.byteLength(answerPieces()[0]!))
      const charged = pointsForUsage(variableCost, { input_tokens: 120, output_tokens: delivered })
      expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -charged })
      expect((await callsOf(user.id))[0]).toMatchObject({ outcome: 'cut', points: charged })
    })

    it('fails over to the next provider on a 5xx, a refused connection and a stall, before any byte reached the client', async () => {
      const user = await customer(ctx, 100)
      const refused = `http://127.0.0.1:${await unusedPort()}`
      const primaryId = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: primary.url, models: ['fo-*'], priority: 10 })
      const refusedId = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: refused, models: ['fo-*'], priority: 9 })
      const backupId = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: backup.url, models: ['fo-*'], priority: 5 })
      for (const failure of [{ kind: 'fail', status: 529 }, { kind: 'stall' }] as const) {
        primary.queue(failure)
        const before = backup.received.length
        const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fo-fixed', { stream: true }) })
        expect(response.status).toBe(200)
        expect(Buffer.from(await response.arrayBuffer()).equals(backup.received.at(-1)!.sent)).toBe(true)
        expect(backup.received.length).toBe(before + 1)
      }
      await settled(ctx, user.id, 2)
      expect((await callsOf(user.id)).map((c) => c.provider_id)).toEqual([backupId, backupId])
      // The second call's hold may be taken before the first is settled: compare call by call.
      const byHold = new Map<string | null, Awaited<ReturnType<typeof ledgerOf>>>()
      for (const row of await ledgerOf(ctx, user.id)) byHold.set(row.hold_id, [...(byHold.get(row.hold_id) ?? []), row])
      expect([...byHold.values()]).toEqual([heldCall('fo-fixed', 5), heldCall('fo-fixed', 5)])
      expect(ctx.logs.filter((line) => line.includes('provider failed')).slice(-4).map((l) => l.match(/provider=(\d+)/)?.[1])).toEqual([
        primaryId,
        refusedId,
        primaryId,
        refusedId,
      ])
      // Failing over never writes a provider's key to the log.
      expect(ctx.logs.join('\n')).not.toContain(fakeProviderSecret)
    })

    it('refuses in the client’s own format: bad key, no package, not enough points, unknown model, bad body', async () => {
      const anthropicError = async (response: Response) => ({ status: response.status, body: await response.json() })

      const badKey = await callRelay(ctx, '/v1/messages', { key: 'sk-relay-nope', body: messages('fixed-model') })
      expect(await anthropicError(badKey)).toEqual({
        status: 401,
        body: {
          type: 'error',
          error: {
            type: 'authentication_error',
            message: withRequestId(badKey, "Invalid API key: the key is unknown or was deleted. Create one on the portal's API keys page and use it as the API key (Claude Code: ANTHROPIC_AUTH_TOKEN)."),
          },
        },
      })
      const unauthenticated = await callRelay(ctx, '/v1/chat/completions', { body: chat('fixed-model') })
      expect(unauthenticated.status).toBe(401)
      expect((await unauthenticated.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' })

      const nobody = await customerWithoutPackage(ctx)
      const noPackage = await callRelay(ctx, '/v1/messages', { key: nobody.key, body: messages('fixed-model') })
      expect(noPackage.status).toBe(403)
      expect((await noPackage.json()).error).toEqual({
        type: 'permission_error',
        message: withRequestId(noPackage, 'No package: redeem a code or join a team in the portal to use the relay.'),
      })

      const poor = await customer(ctx, 8, 2)
      expect(await (await callRelay(ctx, '/v1/messages', { key: poor.key, body: messages('fixed-model') })).json()).toMatchObject({ type: 'message' })
      await settled(ctx, poor.id, 1)
      const short = await callRelay(ctx, '/v1/chat/completions', { key: poor.key, bearer: true, body: chat('fixed-model') })
      expect(short.status).toBe(429)
      expect(short.headers.get('retry-after')).toBe('3600')
      expect(short.headers.get('x-should-retry')).toBe('false')
      const next = new Date(ctx.clock.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
      expect((await short.json()).error).toEqual({
        message: withRequestId(short, `Not enough points: this call needs 5 points and the balance is 3. The next refill (+2 points) comes at ${next}.`),
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      })
      const greedy = await callRelay(ctx, '/v1/messages', { key: poor.key, body: messages('var-model', { max_tokens: 100_000 }) })
      expect(await anthropicError(greedy)).toMatchObject({
        status: 429,
        body: { error: { type: 'rate_limit_error', message: expect.stringMatching(/points, more than your package holds \(8\)\. Ask for fewer output tokens/) } },
      })
      expect((await callRelay(ctx, '/v1/messages', { key: poor.key, body: messages('var-model') })).status).toBe(429)
      expect(await ledgerOf(ctx, poor.id)).toEqual(heldCall('fixed-model', 5))

      const unknown = await callRelay(ctx, '/v1/messages', { key: poor.key, body: messages('no-such-model') })
      // 400 on the Anthropic API: Claude Code shows a 404's message as its own "issue with the selected model".
      expect(await anthropicError(unknown)).toMatchObject({
        status: 400,
        body: { error: { type: 'invalid_request_error', message: expect.stringContaining('The model no-such-model has no price on this relay') } },
      })
      expect(unknown.headers.get('x-should-retry')).toBe('false')
      const unknownChat = await callRelay(ctx, '/v1/chat/completions', { key: poor.key, body: chat('no-such-model') })
      expect(unknownChat.status).toBe(404)
      expect((await unknownChat.json()).error).toMatchObject({ code: 'model_not_found' })
      const notJson = await ctx.relay.fetch(
        new Request('http://relay.test/v1/messages', { method: 'POST', headers: { 'x-api-key': poor.key }, body: '{"model":' }),
      )
      expect(await anthropicError(notJson)).toEqual({
        status: 400,
        body: { type: 'error', error: { type: 'invalid_request_error', message: withRequestId(notJson, 'the request body is not valid JSON') } },
      })

      const wrongMethod = await callRelay(ctx, '/v1/messages', { key: poor.key, method: 'GET' })
      expect(await anthropicError(wrongMethod)).toMatchObject({ status: 404, body: { type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('no GET /v1/messages') } } })
      const unknownPath = await callRelay(ctx, '/v1/completions', { key: poor.key, bearer: true, body: chat('fixed-model') })
      expect(unknownPath.status).toBe(404)
      expect((await unknownPath.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_url', message: expect.stringContaining('POST /v1/chat/completions') })
    })

    it('refuses a call of a package that expired, and one of a deleted key', async () => {
      const user = await customer(ctx, 100)
      ctx.clock.advance(31 * 86_400_000)
      const expired = await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fixed-model') })
      expect(expired.status).toBe(403)
      expect((await expired.json()).error.message).toMatch(/^Your package expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: renew it in the portal\. \(request id \d+\)$/)

      await ctx.call(apiKeyEndpoints.delete, { params: { id: user.keyId }, token: user.token })
      expect((await callRelay(ctx, '/v1/messages', { key: user.key, body: messages('fixed-model') })).status).toBe(401)
    })

    it('counts tokens for free', async () => {
      const user = await customer(ctx, 100)
      const response = await callRelay(ctx, '/v1/messages/count_tokens', { key: user.key, body: { model: 'var-model', messages: [] } })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ input_tokens: defaultFakeUsage.input_tokens })
      expect(primary.received.at(-1)!.url).toBe('/v1/messages/count_tokens')
      expect(await ledgerOf(ctx, user.id)).toEqual([])
    })

    it('lists the priced models a provider serves, in the asking client’s format', async () => {
      const user = await customer(ctx, 100)
      await priceModel(ctx, { model: 'unserved-model', kind: 'fixed', points_per_call: 1 })
      const anthropic = await callRelay(ctx, '/v1/models', { key: user.key, method: 'GET', headers: { 'anthropic-version': '2023-06-01' } })
      expect(anthropic.status).toBe(200)
      const listed = await anthropic.json()
      expect(listed.data.map((m: { id: string }) => m.id)).toEqual(
        expect.arrayContaining(['fixed-model', 'var-model', 'fo-fixed']),
      )
      expect(listed.data.map((m: { id: string }) => m.id)).not.toContain('unserved-model')
      expect(listed.data[0]).toMatchObject({ type: 'model', display_name: expect.any(String), created_at: expect.any(String) })

      const openai = await callRelay(ctx, '/v1/models', { key: user.key, bearer: true, method: 'GET' })
      const list = await openai.json()
      expect(list.object).toBe('list')
      // The openai provider serves every model (`*`), the unserved one included.
      expect(list.data.map((m: { id: string }) => m.id)).toContain('unserved-model')
      expect(list.data[0]).toMatchObject({ object: 'model', owned_by: 'relay' })
      expect((await callRelay(ctx, '/v1/models', { method: 'GET' })).status).toBe(401)
    })

    it('lists each model once and pages the Anthropic list as Claude Code’s model discovery asks (limit, after_id, before_id)', async () => {
      const user = await customer(ctx, 100)
      await priceModel(ctx, { model: 'var-model-20260101', kind: 'fixed', points_per_call: 1 })
      await priceModel(ctx, { model: 'var-other-2026-01-01', kind: 'fixed', points_per_call: 1 })
      const page = async (query: string) => {
        const response = await callRelay(ctx, `/v1/models${query}`, { key: user.key, method: 'GET', headers: { 'anthropic-version': '2023-06-01' } })
        expect(response.status).toBe(200)
        return response.json()
      }
      const all = await page('?limit=1000')
      const ids: string[] = all.data.map((m: { id: string }) => m.id)
      // The dated id of a listed alias is the same model; a dated id alone is listed.
      expect(ids).toContain('var-model')
      expect(ids).not.toContain('var-model-20260101')
      expect(ids).toContain('var-other-2026-01-01')
      expect(new Set(ids).size).toBe(ids.length)
      expect(all).toMatchObject({ has_more: false, first_id: ids[0], last_id: ids.at(-1) })
      expect((await page('')).data).toHaveLength(ids.length)

      const first = await page('?limit=2')
      expect(first).toMatchObject({ has_more: ids.length > 2, first_id: ids[0], last_id: ids[1] })
      const next = await page(`?limit=2&after_id=${first.last_id}`)
      expect(next.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(2, 4))
      const back = await page(`?limit=1&before_id=${next.first_id}`)
      expect(back).toMatchObject({ data: [{ id: ids[1] }], has_more: true })
      expect((await page('?limit=0')).data).toHaveLength(1)
    })

    it('describes the /v1 API in the OpenAPI document', async () => {
      // Raw: the document is a download outside the envelope, which a typed call does not read.
      const document = (await ctx.request('GET', '/api/openapi.json')).body
      for (const [path, method] of [['/v1/messages', 'post'], ['/v1/messages/count_tokens', 'post'], ['/v1/chat/completions', 'post'], ['/v1/responses', 'post'], ['/v1/models', 'get']]) {
        expect(document.paths[path!][method!]).toMatchObject({ tags: ['relay'], security: [{ apiKey: [] }, { apiKeyBearer: [] }, { oauthApi: ['api'] }] })
      }
      expect(document.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' })
    })

    it('reports the balance, limit, refill and subscription to CLI status bars', async () => {
      const user = await customer(ctx, 500, 50)
      ctx.clock.advance(60_000)
      const reply = await ctx.call(apiKeyEndpoints.usage, { headers: { 'x-api-key': user.key } })
      expect(reply).toMatchObject({
        points: { balance: 500, limit: 500, hour_points: 50, next_refill_timestamp: ctx.clock.now() - 60_000 + 3_600_000 },
        subscription: { status: 'normal', end_timestamp: ctx.clock.now() - 60_000 + 30 * 86_400_000 },
      })
    })
  },
  { providerTimeoutMs: 500 },
)
