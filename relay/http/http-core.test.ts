import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTestDatabase, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { ManualClock } from '../../tests/fixtures/relay-harness.ts'
import { createRelayApp } from '../app.ts'
import { relayConfigSchema } from '../config.ts'
import { migrateToLatest } from '../db/migrate.ts'
import type { Database } from '../db/open-database.ts'
import { createLogger } from '../logger.ts'
import { createLogMailer } from '../mail/mailer.ts'
import { createServices } from '../create-services.ts'
import type { RelayDeps } from '../services.ts'
import { clientIp, resolveClientAddress } from './client-ip.ts'
import { handleError } from './error-handlers.ts'
import { parseRelayJson } from '../contract/json.ts'
import { mountRoutes } from './mount-routes.ts'
import { RelayError } from './relay-error.ts'
import type { RelayEnv } from './relay-env.ts'
import { defineRoute } from './route.ts'
import { endpoint } from '../contract/endpoint.ts'

const bigId = '9007199254740993' // 2^53 + 1: a JS number would read it as ...992

describe('HTTP core', () => {
  let testDb: TestDatabase
  let db: Database
  let deps: RelayDeps
  const logs: string[] = []
  const clock = new ManualClock(1_700_000_000_000)
  const app = new Hono<RelayEnv>()

  beforeAll(async () => {
    testDb = await createTestDatabase('sqlite')
    db = testDb.open()
    await migrateToLatest(db)
    const logger = createLogger('debug', (line) => logs.push(line))
    deps = {
      db,
      clock,
      logger,
      mailer: createLogMailer(logger),
      config: relayConfigSchema.parse({ databaseUrl: testDb.url, jwtSecrets: ['x'.repeat(32)], checkResponses: true }),
    }
    const routes = [
      defineRoute(endpoint({
        method: 'post',
        path: '/api/test/echo/{slot}',
        summary: 'Echo',
        tag: 'test',
        auth: 'none',
        params: z.object({ slot: z.string().regex(/^\d+$/) }),
        query: z.object({ verbose: z.enum(['yes', 'no']).optional() }),
        body: z.object({ ticket_id: z.string(), count: z.number().int().min(1), note: z.string().max(5) }),
        response: z.object({ id: z.string(), ticket_id: z.string(), slot: z.string(), count: z.number(), label: z.string() }),
      }), async ({ body, params }) => ({ id: bigId, ticket_id: body.ticket_id, slot: params.slot, count: body.count, label: '12345678901234567890' })),
      defineRoute(endpoint({
        method: 'get',
        path: '/api/test/fail',
        summary: 'Fails',
        tag: 'test',
        auth: 'none',
        query: z.object({ kind: z.enum(['relay', 'crash', 'schema']) }),
        response: z.object({ ok: z.boolean() }),
      }), async ({ query }) => {
        if (query.kind === 'relay') throw new RelayError('code_expired', 'the code expired', { hint: 'resend' })
        if (query.kind === 'schema') return { ok: 'yes' } as never
        throw new Error('secret database detail')
      }),
      defineRoute(endpoint({
        method: 'get',
        path: '/api/test/me',
        summary: 'Needs a user',
        tag: 'test',
        auth: 'user',
        response: z.object({ id: z.string() }),
      }), async ({ user }) => ({ id: user.id })),
    ]
    mountRoutes(app, routes, createServices(deps))
    app.onError(handleError(deps.logger))
  })
  afterAll(async () => {
    await db.destroy()
    await testDb.dispose()
  })

  const call = (path: string, init?: RequestInit) => app.fetch(new Request(`http://relay.test${path}`, init), {})

  it('writes the success envelope with ids above 2^53 as bare numbers and reads them back from bodies', async () => {
    const response = await call('/api/test/echo/7?verbose=yes', {
      method: 'POST',
      body: `{"ticket_id": ${bigId}, "count": 3, "note": "hi"}`,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const text = await response.text()
    expect(text).toBe(
      `{"code":0,"data":{"id":${bigId},"ticket_id":${bigId},"slot":"7","count":3,"label":"12345678901234567890"},"message":"ok","timestamp":1700000000000}`,
    )
    expect(parseRelayJson(text)).toMatchObject({ data: { id: bigId, ticket_id: bigId, count: 3 } })
  })

  it('answers 400 validation with messages per field', async () => {
    const response = await call('/api/test/echo/x?verbose=maybe', { method: 'POST', body: '{"count": 0, "note": "too long"}' })
    expect(response.status).toBe(400)
    const body = parseRelayJson(await response.text()) as { code: number; error: { details: { reason: string; fields: Record<string, string[]> } } }
    expect(body.code).toBe(40000)
    expect(body.error.details.reason).toBe('validation')
    // Body errors are reported first; params and query are checked after a valid body.
    expect(Object.keys(body.error.details.fields).sort()).toEqual(['count', 'note', 'ticket_id'])
  })

  it('answers 400 bad_request to malformed JSON', async () => {
    const response = await call('/api/test/echo/1', { method: 'POST', body: '{"ticket_id": ' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 40001, error: { details: { reason: 'bad_request' } } })
  })

  it('turns a thrown RelayError into its status and envelope', async () => {
    const response = await call('/api/test/fail?kind=relay')
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({
      code: 42202,
      message: 'the code expired',
      error: { details: { reason: 'code_expired', hint: 'resend' } },
    })
  })

  it('hides unknown errors behind 500 internal and logs them', async () => {
    const response = await call('/api/test/fail?kind=crash')
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(text).not.toContain('secret')
    expect(JSON.parse(text)).toMatchObject({ code: 50000, error: { details: { reason: 'internal' } } })
    expect(logs.some((line) => line.includes('ERROR unhandled error') && line.includes('secret database detail'))).toBe(true)
  })

  it('rejects a reply that breaks its declared schema when checkResponses is on', async () => {
    expect((await call('/api/test/fail?kind=schema')).status).toBe(500)
  })

  it('requires a bearer token where auth is user', async () => {
    const missing = await call('/api/test/me')
    expect(missing.status).toBe(401)
    expect(await missing.json()).toMatchObject({ code: 40100, error: { details: { reason: 'unauthenticated' } } })
    const forged = await call('/api/test/me', { headers: { authorization: 'Bearer not.a.jwt' } })
    expect(forged.status).toBe(401)
  })

  it('answers unknown /api paths with a 404 envelope, and serves the OpenAPI document', async () => {
    const relayApp = createRelayApp(createServices(deps))
    const missing = await relayApp.fetch(new Request('http://relay.test/api/nope'), {})
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ code: 40400, error: { details: { reason: 'not_found' } } })
    const document = await relayApp.fetch(new Request('http://relay.test/api/openapi.json'), {})
    expect(document.status).toBe(200)
    expect(document.headers.get('content-type')).toContain('application/json')
    expect(document.headers.get('x-content-type-options')).toBe('nosniff')
    expect(document.headers.get('referrer-policy')).toBe('no-referrer')
    expect(await document.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Relay API' } })
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff')
    // The reference page is the portal's now (docs/decisions/100-one-declaration-per-call.md): the relay has none.
    expect((await relayApp.fetch(new Request('http://relay.test/api/docs'), {})).status).toBe(404)
  })

  it('takes the client address from the peer, and from X-Forwarded-For only behind a trusted proxy', () => {
    const forwarded = '6.6.6.6, 198.51.100.7'
    expect(resolveClientAddress('10.0.0.1', forwarded, false)).toBe('10.0.0.1')
    expect(resolveClientAddress('10.0.0.1', forwarded, true)).toBe('198.51.100.7')
    expect(resolveClientAddress('10.0.0.1', undefined, true)).toBe('10.0.0.1')
    expect(resolveClientAddress(undefined, undefined, false)).toBe('unknown')
  })

  it('takes an address resolved by the embedding server as final, whatever the request says', async () => {
    const probe = new Hono<RelayEnv>()
    probe.get('/ip', (c) => c.text(clientIp(c, true)))
    const request = new Request('http://x/ip', { headers: { 'x-forwarded-for': '6.6.6.6' } })
    expect(await (await probe.fetch(request, { clientIp: '203.0.113.5' })).text()).toBe('203.0.113.5')
  })
})
