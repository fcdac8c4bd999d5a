import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, expectTypeOf, it, vi } from 'vitest'
import { endpoints, type TicketPage } from '#relay/contract/index.ts'
import { createRelayClient, isRelayUnavailable, RelayCallError, RelayReplyMismatch, type RelayClient } from './relay-client.server.ts'
import { elapse } from '../../tests/fixtures/time.ts'

describe('reading replies by the contract envelope', () => {
  const answering = (status: number, body: string) =>
    createRelayClient({ transport: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }), baseUrl: 'http://relay.test' })
  const check = { query: { email: 'a@b.c' } }

  it('turns the error envelope into a refusal with its code, message and reason', async () => {
    const body = JSON.stringify({ code: 42201, message: 'bad code', error: { details: { reason: 'code_invalid' } } })
    const error = await answering(422, body).call(endpoints.accounts.checkEmail, check).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RelayCallError)
    expect(error).toMatchObject({ message: 'bad code', status: 422, code: 42201, reason: 'code_invalid' })
  })

  it('reads a failure that is not the relay envelope (a proxy page) as the relay being unavailable', async () => {
    const error = await answering(502, 'Bad Gateway').call(endpoints.accounts.checkEmail, check).catch((caught: unknown) => caught)
    expect(isRelayUnavailable(error)).toBe(true)
  })

  it('refuses a success answer outside the envelope, such as a bare success flag', async () => {
    const body = JSON.stringify({ success: true, data: { available: true } })
    await expect(answering(200, body).call(endpoints.accounts.checkEmail, check)).rejects.toBeInstanceOf(RelayReplyMismatch)
  })
})

describe('createRelayClient', () => {
  function countingRelay() {
    const seen: string[] = []
    const transport = async (request: Request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`)
      return Response.json({ code: 0, data: { available: seen.length % 2 === 1 }, message: 'ok', timestamp: 0 })
    }
    return { seen, client: createRelayClient({ transport, baseUrl: 'http://relay.test' }) }
  }

  it('reads the same thing once per request, and again after a write', async () => {
    const { seen, client } = countingRelay()
    const check = endpoints.accounts.checkUsername
    const [a, b] = await Promise.all([client.call(check, { query: { username: 'hana' } }), client.call(check, { query: { username: 'hana' } })])
    expect(a).toEqual(b)
    await client.call(check, { query: { username: 'yuki' } })
    await client.call(endpoints.accounts.sendRegisterCode, { body: { email: 'hana@example.com' } }).catch(() => undefined)
    await client.call(check, { query: { username: 'hana' } })
    expect(seen).toEqual([
      'GET /api/user/check/username?username=hana',
      'GET /api/user/check/username?username=yuki',
      'POST /api/auth/send-register-code',
      'GET /api/user/check/username?username=hana',
    ])
  })

  /** A relay that answers every call with `data`, recording what it was sent. */
  function relayAnswering(data: unknown) {
    const sent: Array<{ method: string; url: string; body: string; key: string | null }> = []
    const transport = async (request: Request) => {
      sent.push({ method: request.method, url: request.url, body: await request.text(), key: request.headers.get('idempotency-key') })
      return new Response(`{"code":0,"data":${data},"message":"ok","timestamp":0}`, { headers: { 'content-type': 'application/json' } })
    }
    return { sent, relay: createRelayClient({ transport, baseUrl: 'http://relay.test' }) }
  }

  it('fills the path, writes ids as bare numbers, and parses the reply with the declared schema', async () => {
    const { sent, relay } = relayAnswering('{"id":9007199254740993}')
    const deleted = await relay.call(endpoints.apiKeys.delete, { params: { id: '9007199254740993' } })
    expect(deleted).toEqual({ id: '9007199254740993' })
    expect(sent[0]).toMatchObject({ method: 'DELETE', url: 'http://relay.test/api/user/api-keys/9007199254740993', body: '' })

    const joined = relayAnswering('{"team_id":7,"team_name":"Ops","package_name":"Team","user_type":"team","extra":1}')
    const reply = await joined.relay.call(endpoints.teams.join, { body: { team_code: 'abcd' }, idempotencyKey: 'k'.repeat(16) })
    expect(reply).toEqual({ team_id: '7', team_name: 'Ops', package_name: 'Team', user_type: 'team' })
    expect(joined.sent[0]).toMatchObject({ method: 'POST', body: '{"team_code":"abcd"}', key: 'k'.repeat(16) })
  })

  it('refuses a success reply its contract does not allow, instead of handing it on', async () => {
    const { relay } = relayAnswering('{"available":"yes"}')
    await expect(relay.call(endpoints.accounts.checkEmail, { query: { email: 'a@b.c' } })).rejects.toBeInstanceOf(RelayReplyMismatch)
  })

  it('types every call from its declaration', () => {
    // Compiled, never run: `tsc --noEmit` fails if any line below stops being an error.
    const misuses = async (relay: RelayClient) => {
      // @ts-expect-error the redeem body is { redeem_code }
      await relay.call(endpoints.subscriptions.redeemCode, { body: { code: 'ABCD1234' } })
      // @ts-expect-error a call that declares a body needs one
      await relay.call(endpoints.teams.join)
      // @ts-expect-error the ticket path parameter is {id}
      await relay.call(endpoints.tickets.detail, { params: { ticket: '1' } })
      // @ts-expect-error user info takes no path parameters
      await relay.call(endpoints.accounts.info, { params: { id: '1' } })
      // @ts-expect-error only idempotent calls take an idempotency key
      await relay.call(endpoints.subscriptions.validateRedeemCode, { body: { redeem_code: 'ABCD1234' }, idempotencyKey: 'k'.repeat(16) })
      const info = await relay.call(endpoints.accounts.info)
      // @ts-expect-error the reply has no such field
      void info.user.balance
      expectTypeOf(info.user.id).toEqualTypeOf<string>()
      expectTypeOf(await relay.call(endpoints.tickets.list, { query: { status: 'open' } })).toEqualTypeOf<TicketPage>()
    }
    expect(misuses).toBeTypeOf('function')
  })
})

describe('a relay too slow for the page', () => {
  /** A relay on loopback that answers as `answer` decides: late, cut off, or a byte at a time. */
  async function slowRelay(answer: (response: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer((_request, response) => answer(response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    }
  }
  const reply = JSON.stringify({ code: 0, data: { available: true }, message: 'ok', timestamp: 0 })

  async function statusOf(relay: { url: string }, budgetMs: number): Promise<number> {
    const client = createRelayClient({ transport: (request) => fetch(request), baseUrl: relay.url, deadline: Date.now() + budgetMs })
    const error = await client.call(endpoints.accounts.checkUsername, { query: { username: 'hana' } }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(isRelayUnavailable(error), 'keeps the session like an outage').toBe(true)
    return (error as { init: { status: number } }).init.status
  }

  /** What a page whose budget is `budgetMs` shows, against a relay that answers as `answer` decides. */
  async function pageStatus(budgetMs: number, answer: (response: ServerResponse) => void): Promise<number> {
    const relay = await slowRelay(answer)
    try {
      return await statusOf(relay, budgetMs)
    } finally {
      await relay.close()
    }
  }

  it('shows "service slow" (504) when the answer comes after the page budget', async () => {
    expect(await pageStatus(300, (response) => setTimeout(() => response.end(reply), 2_000).unref())).toBe(504)
  })

  it('shows "service slow" when the answer trickles in past the budget, a byte at a time', async () => {
    const trickle = (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      let sent = 0
      const timer = setInterval(() => (sent < reply.length ? response.write(reply[sent++]!) : (clearInterval(timer), response.end())), 50)
      response.on('close', () => clearInterval(timer))
    }
    expect(await pageStatus(400, trickle)).toBe(504)
  })

  it('shows "service unavailable" (503), not a bare error, when the answer is cut off mid-body', async () => {
    const cutOff = (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(reply.length) })
      response.write(reply.slice(0, 10))
      setTimeout(() => response.destroy(), 20)
    }
    expect(await pageStatus(5_000, cutOff)).toBe(503)
  })

  /** A download (the usage log's CSV) with a page budget of `budgetMs`, against a relay that answers as `answer` decides. */
  async function download(budgetMs: number, answer: (response: ServerResponse) => void) {
    const relay = await slowRelay(answer)
    const client = createRelayClient({ transport: (request) => fetch(request), baseUrl: relay.url, deadline: Date.now() + budgetMs })
    return { relay, answered: client.download(endpoints.usage.export, { query: { model: 'claude' } }) }
  }

  it('streams a download on past the budget once its answer has started', async () => {
    let finish = () => {}
    const { relay, answered } = await download(300, (response) => {
      response.writeHead(200, { 'content-type': 'text/csv' })
      response.write('id,model\n')
      finish = () => response.end('1,claude\n')
    })
    try {
      const answer = await answered
      expect(answer.headers.get('content-type')).toBe('text/csv')
      // The rest of the body comes after the page's budget is spent: a long export is not cut.
      await elapse(400)
      finish()
      expect(await answer.text()).toBe('id,model\n1,claude\n')
    } finally {
      await relay.close()
    }
  })

  it('shows "service slow" (504) when a download does not start within the budget', async () => {
    const { relay, answered } = await download(300, (response) => setTimeout(() => response.end('id\n'), 2_000).unref())
    try {
      const error = await answered.then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
      expect(isRelayUnavailable(error)).toBe(true)
      expect((error as { init: { status: number } }).init.status).toBe(504)
    } finally {
      await relay.close()
    }
  })

  it('shows "service slow" (504) on time when the relay runs in this process and goes on past the abort', async () => {
    // The embedded relay's fetch is its handler: an aborted Request does not stop it.
    let answerLate!: (response: Response) => void
    const client = createRelayClient({ transport: () => new Promise<Response>((resolve) => (answerLate = resolve)), baseUrl: 'http://relay.internal', deadline: Date.now() + 300 })
    const error = await client.call(endpoints.accounts.checkUsername, { query: { username: 'hana' } }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(isRelayUnavailable(error)).toBe(true)
    expect((error as { init: { status: number } }).init.status).toBe(504)
    // The answer that comes after is dropped, and its body cancelled, not left open.
    let cancelled = false
    answerLate(new Response(new ReadableStream({ cancel: () => void (cancelled = true) })))
    await vi.waitFor(() => expect(cancelled).toBe(true))
  })
})
