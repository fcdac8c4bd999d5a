/**
 * The portal's edge (docs/architecture.md, security): a CSP whose script nonce is new on every response, security
 * headers, cross-origin form posts refused (page actions and resource routes), the honeypot.
 */
import { parse } from 'node-html-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { startTestRelay, type TestRelay } from '../fixtures/relay-harness.ts'
import { serveRelay, type ServedRelay } from '../fixtures/serve-relay.ts'
import { formInputs, loadPortal, portalOrigin, portalTestEnv, Visitor } from './portal-harness.ts'

let database: TestDatabase
let relay: TestRelay
let server: ServedRelay
let handle: (request: Request) => Promise<Response>

beforeAll(async () => {
  database = await createTestDatabase('sqlite')
  relay = await startTestRelay(database)
  server = await serveRelay(relay.relay)
  handle = await loadPortal({ ...portalTestEnv, RELAY_URL: server.url })
})

afterAll(async () => {
  await server.stop()
  await relay.close()
  await database.dispose()
})

function post(path: string, body: URLSearchParams, headers: Record<string, string>) {
  return handle(
    new Request(new URL(path, portalOrigin), {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    }),
  )
}

describe('portal security', () => {
  it('sends a CSP with a fresh nonce that the page scripts carry, and the security headers', async () => {
    const [a, b] = await Promise.all([handle(new Request(`${portalOrigin}/auth/login`)), handle(new Request(`${portalOrigin}/auth/login`))])
    const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? '')?.[1]
    const nonceA = nonceOf(a.headers.get('content-security-policy'))
    const nonceB = nonceOf(b.headers.get('content-security-policy'))
    expect(nonceA).toBeTruthy()
    expect(nonceA).not.toBe(nonceB)
    const html = await a.text()
    const scripts = parse(html).querySelectorAll('script')
    expect(scripts.length).toBeGreaterThan(0)
    for (const script of scripts) expect(script.getAttribute('nonce')).toBe(nonceA)
    expect(a.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(a.headers.get('content-security-policy')).toContain("base-uri 'none'")
    expect(a.headers.get('x-content-type-options')).toBe('nosniff')
    expect(a.headers.get('x-frame-options')).toBe('DENY')
    expect(a.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })

  it('refuses a login form posted from another origin', async () => {
    const account = await relay.signUp()
    const page = await handle(new Request(`${portalOrigin}/auth/login`))
    const body = new URLSearchParams({ ...formInputs(await page.text()), username: account.username, password: account.password })
    const forged = await post('/auth/login', body, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })
    expect(forged.status).toBeGreaterThanOrEqual(400)
    expect(forged.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(false)
  })

  it('refuses cross-site posts to resource routes (theme, language, logout)', async () => {
    for (const path of ['/resources/theme', '/resources/locale', '/auth/logout']) {
      const forged = await post(path, new URLSearchParams({ theme: 'dark', lng: 'en' }), {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      })
      expect(forged.status, path).toBe(403)
    }
    const same = await post('/resources/theme', new URLSearchParams({ theme: 'dark', redirectTo: '/privacy' }), {
      origin: portalOrigin,
      'sec-fetch-site': 'same-origin',
    })
    expect(same.status).toBe(302)
    expect(same.headers.get('location')).toBe('/privacy')
  })

  it('refuses a post that shows no origin, and takes Sec-Fetch-Site or a Referer on this site as one', async () => {
    const account = await relay.signUp()
    const page = await handle(new Request(`${portalOrigin}/auth/login`))
    const inputs = formInputs(await page.text())
    const login = (headers: Record<string, string>) =>
      post('/auth/login', new URLSearchParams({ ...inputs, username: account.username, password: account.password }), headers)
    const signedIn = (response: Response) => response.headers.getSetCookie().some((c) => c.startsWith('__session='))
    const suspicious: Record<string, string>[] = [{}, { referer: 'https://evil.example/page' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }]
    for (const headers of suspicious) {
      const refused = await login(headers)
      expect(refused.status, JSON.stringify(headers)).toBe(403)
      expect(signedIn(refused)).toBe(false)
    }
    for (const path of ['/resources/theme', '/auth/logout', '/api-keys', '/tickets/create', '/profile']) {
      expect((await post(path, new URLSearchParams({ theme: 'dark' }), {})).status, path).toBe(403)
    }
    expect(signedIn(await login({ 'sec-fetch-site': 'same-origin' }))).toBe(true)
    expect(signedIn(await login({ referer: `${portalOrigin}/auth/login` }))).toBe(true)
  })

  it('never redirects off-site after a settings change', async () => {
    for (const redirectTo of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
      const response = await post('/resources/theme', new URLSearchParams({ theme: 'dark', redirectTo }), {
        origin: portalOrigin,
        'sec-fetch-site': 'same-origin',
      })
      expect(response.headers.get('location'), redirectTo).toBe('/')
    }
  })

  it('turns away a public form whose honeypot field was filled', async () => {
    const account = await relay.signUp()
    const visitor = new Visitor(handle)
    const page = await visitor.get('/auth/login')
    const inputs = formInputs(await page.text())
    const honeypot = Object.keys(inputs).find((name) => name.startsWith('name__'))!
    const response = await post(
      '/auth/login',
      new URLSearchParams({ ...inputs, [honeypot]: 'i am a bot', username: account.username, password: account.password }),
      { origin: portalOrigin, 'sec-fetch-site': 'same-origin' },
    )
    expect(response.status).toBe(400)
    expect(response.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(false)
  })
})
