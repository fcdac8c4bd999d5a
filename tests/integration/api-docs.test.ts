/**
 * The API reference at /api/docs (docs/decisions/100-one-declaration-per-call.md) as a browser without JavaScript uses
 * it: the production build against a real relay over HTTP, on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL. Every call the relay documents is listed in zh, en and ja; the try-it form makes the
 * real call with the signed-in user's session; curl commands carry the deployment's public address.
 */
import { parse } from 'node-html-parser'
import { beforeAll, expect, it } from 'vitest'
import { resources } from '../../app/locales/index.ts'
import { languages } from '../../app/locales/types.ts'
import { endpoints, operationId, type Endpoint } from '../../relay/contract/index.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import { makeCodes } from '../fixtures/points.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { formInputs, portalOrigin, textOf, Visitor } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
/** Where CLI clients are told to reach the relay, unlike the relay's internal address. */
const apiOrigin = 'https://api.portal.test'
const { handle, signedIn } = portalOverRelay(() => target!, { RELAY_PUBLIC_URL: apiOrigin })

async function page(visitor: Visitor, path: string): Promise<string> {
  const response = await visitor.get(path)
  expect(response.status, path).toBe(200)
  return response.text()
}

/** Posts `fields` to `path` as a browser posts a form. */
function post(visitor: Visitor, path: string, fields: Record<string, string>): Promise<Response> {
  return handle(
    new Request(new URL(path, portalOrigin), {
      method: 'POST',
      body: new URLSearchParams(fields),
      redirect: 'manual',
      headers: { cookie: visitor.cookieHeader(), origin: portalOrigin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    }),
  )
}

/** Posts the try-it form of `operation` as the page rendered it, with `fields` typed in. */
async function tryCall(visitor: Visitor, path: string, operation: string, fields: Record<string, string> = {}): Promise<Response> {
  const form = parse(await page(visitor, path)).querySelector(`[data-testid="try-${operation}"]`)
  expect(form, `try-it form of ${operation}`).not.toBeNull()
  const typed = Object.fromEntries(form!.querySelectorAll('input[name]').map((input) => [input.getAttribute('name')!, input.getAttribute('value') ?? '']))
  return post(visitor, path, { ...typed, ...fields })
}

const declared = Object.values(endpoints).flatMap((area) => Object.values(area) as Endpoint[])

describeEachDatabase('API reference', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  // Three languages of every page of the reference: about 150 calls, several seconds each on a busy machine.
  it('lists every documented call in zh, en and ja, each with its translated summary, method and path', { timeout: 90_000 }, async () => {
    const document = (await ctx.request('GET', '/api/openapi.json')).body
    const documented = Object.entries(document.paths as Record<string, Record<string, { operationId: string; summary: string }>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ id: operation.operationId, summary: operation.summary, method, path })),
    )
    // Every declaration is documented, and the /v1 API besides.
    for (const call of declared) expect(documented.map((operation) => operation.id)).toContain(operationId(call))
    expect(documented.length).toBeGreaterThan(declared.length)

    // The operator console's calls are listed to operators alone (below); everyone else sees the rest.
    const visitor = new Visitor(handle)
    const forOperators = (operation: { path: string }) => operation.path.startsWith('/api/admin/')
    const anonymous = await page(visitor, '/api/docs')
    for (const operation of documented.filter(forOperators)) expect(parse(anonymous).querySelector(`[data-testid="call-${operation.id}"]`), operation.id).toBeNull()
    expect((await visitor.get('/api/docs/admin')).status).toBe(404)

    const operator = await ctx.signUp()
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('username', '=', operator.username).execute()
    const admin = await signedIn(operator)
    expect((await admin.get('/api/docs/admin')).status).toBe(200)
    for (const language of languages) {
      const html = await page(admin, `/api/docs?lng=${language}`)
      expect(parse(html).querySelector('h1')?.text).toBe(resources[language].apidocs.title)
      // English is the contract's own summary; zh and ja translate each (the locale test keeps their keys equal).
      const summaries = language === 'en' ? Object.fromEntries(documented.map((operation) => [operation.id, operation.summary])) : (resources[language].apidocs.operations as Record<string, string>)
      for (const operation of documented) {
        expect(summaries[operation.id], `${language} summary of ${operation.id}`).toBeTruthy()
        const row = textOf(html, `call-${operation.id}`)
        expect(row).toContain(operation.method.toUpperCase())
        expect(row).toContain(operation.path)
        expect(row).toContain(summaries[operation.id])
      }
    }
  })

  it('shows each call in full on its tag page: schemas, examples and a curl command on the public address', async () => {
    const visitor = new Visitor(handle)
    const overview = parse(await page(visitor, '/api/docs'))
    expect(textOf(overview.toString(), 'base-url')).toBe(apiOrigin)
    const tags = overview.querySelectorAll('[data-testid^="tag-"]').map((section) => section.getAttribute('id')!)
    expect(tags).toContain('points')
    for (const tag of tags) {
      const html = await page(visitor, `/api/docs/${tag}`)
      for (const row of overview.querySelectorAll(`[data-testid="tag-${tag}"] [data-testid^="call-"]`)) {
        expect(html).toContain(`data-testid="operation-${row.getAttribute('data-testid')!.slice('call-'.length)}"`)
      }
    }

    const points = await page(visitor, '/api/docs/points')
    const card = textOf(points, 'operation-getApiUserPoints')
    expect(card).toContain('/api/user/points')
    expect(card).toContain('需登录 · 积分与套餐')
    expect(textOf(points, 'response-getApiUserPoints')).toContain('balance integer')
    expect(card).toContain(`curl -sS '${apiOrigin}/api/user/points' \\ -H "Authorization: Bearer $RELAY_TOKEN"`)
    // Signed out, the form is an invitation to sign in that comes back here.
    expect(card).toContain('登录后可在这里以你的账户调用此接口')
    expect(points).toContain('href="/auth/login?redirectTo=%2Fapi%2Fdocs%2Fpoints"')

    // A call taking an API key says so, with the key's placeholder; a write shows its body.
    const keys = await page(visitor, '/api/docs/api-keys')
    expect(textOf(keys, 'operation-getApiV1Usage')).toContain(`curl -sS '${apiOrigin}/api/v1/usage' \\ -H "x-api-key: $RELAY_API_KEY"`)
    expect(textOf(keys, 'operation-postApiUserApiKeys')).toContain('-H "Idempotency-Key: $(uuidgen)"')
    const relay = await page(visitor, '/api/docs/relay')
    expect(textOf(relay, 'operation-postV1Messages')).toContain(`curl -sS -X POST '${apiOrigin}/v1/messages'`)
    expect(textOf(relay, 'operation-postV1Messages')).toContain('"model":"claude-sonnet-5-5"')
    // The /v1 API's answers are listed by HTTP status, as the document words them.
    expect(textOf(relay, 'operation-postV1Messages')).toContain('429 Not enough points')

    expect((await visitor.get('/api/docs/no-such-tag')).status).toBe(404)
  })

  it('makes the call of a try-it form with the signed-in user\'s session and shows the reply', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const [code] = await makeCodes(ctx, 'PERSONAL', 1)
    await ctx.call(endpoints.subscriptions.redeemCode, { token: account.login.access_token, body: { redeem_code: code! } })

    const tried = await tryCall(visitor, '/api/docs/points', 'getApiUserPoints')
    expect(tried.status).toBe(200)
    const html = await tried.text()
    const result = textOf(html, 'try-result-getApiUserPoints')
    expect(result).toContain('HTTP 200')
    expect(result).toContain('"balance":')
    expect(result).toContain('"points_limit": 2400')

    // The relay's refusal is shown as it came, and what was typed stays in the form.
    const missing = await tryCall(visitor, '/api/docs/tickets', 'getApiUserTicketsId', { 'path.id': '123' })
    const refused = await missing.text()
    expect(textOf(refused, 'try-result-getApiUserTicketsId')).toContain('HTTP 404')
    expect(textOf(refused, 'try-result-getApiUserTicketsId')).toContain('"reason": "not_found"')
    expect(formInputs(refused)).toMatchObject({ operation: 'getApiUserTicketsId' })
    expect(parse(refused).querySelector('input[name="path.id"]')?.getAttribute('value')).toBe('123')

    // A path may not step out of the call's own.
    expect((await tryCall(visitor, '/api/docs/tickets', 'getApiUserTicketsId', { 'path.id': '..' })).status).toBe(400)
    // Only reads in the envelope can be tried: not a write, not a call of another kind.
    expect((await tryCall(visitor, '/api/docs/points', 'getApiUserPoints', { operation: 'postApiUserPointsResetTicket' })).status).toBe(400)
    // Signed out, the call is not made: the visitor is sent to sign in.
    const stranger = await post(new Visitor(handle), '/api/docs/points', { operation: 'getApiUserPoints' })
    expect(stranger.status).toBe(302)
    expect(stranger.headers.get('location')).toBe('/auth/login?redirectTo=%2Fapi%2Fdocs%2Fpoints&reason=required')
  })
})
