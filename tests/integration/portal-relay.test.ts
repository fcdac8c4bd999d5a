/**
 * The portal's production build against a real relay over HTTP (the RELAY_URL shape):
 * 64-bit ids arrive unchanged, a relay that goes down shows the error page and keeps the
 * session, and two parallel requests with an expiring token both stay signed in.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { startTestRelay, type TestAccount, type TestRelay } from '../fixtures/relay-harness.ts'
import { serveRelay, type ServedRelay } from '../fixtures/serve-relay.ts'
import { loadPortal, portalTestEnv, Visitor } from './portal-harness.ts'

let database: TestDatabase
let relay: TestRelay
let server: ServedRelay
let handle: (request: Request) => Promise<Response>

async function signedIn(account: TestAccount): Promise<Visitor> {
  const visitor = new Visitor(handle)
  const response = await visitor.submit('/auth/login', { username: account.username, password: account.password })
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/dashboard')
  expect(visitor.cookies.has('__session')).toBe(true)
  return visitor
}

beforeAll(async () => {
  database = await createTestDatabase('sqlite')
  // Access tokens of 60 s are always inside the portal's 5-minute refresh margin: every request refreshes.
  relay = await startTestRelay(database, { accessTokenTtlSeconds: 60 })
  server = await serveRelay(relay.relay)
  handle = await loadPortal({ ...portalTestEnv, RELAY_URL: server.url })
})

afterAll(async () => {
  await server.stop()
  await relay.close()
  await database.dispose()
})

describe('portal ↔ relay', () => {
  it('keeps ids above 2^53 exact from the relay to the page data', async () => {
    const account = await relay.signUp()
    const id = account.login.user.id
    expect(BigInt(id)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER))
    // The relay writes the id as a bare JSON number (which JSON.parse may round: relay/contract/json.test.ts).
    const raw = await relay.request('GET', '/api/user/info', { token: account.login.access_token })
    expect(raw.text).toContain(`"id":${id}`)

    const visitor = await signedIn(account)
    const data = await visitor.get('/dashboard.data')
    expect(data.status).toBe(200)
    expect(await data.text()).toContain(`"${id}"`)
  })

  it('shows the error page and keeps the session while the relay is down', async () => {
    const visitor = await signedIn(await relay.signUp())
    const cookieBefore = visitor.cookies.get('__session')
    await server.stop()
    try {
      const down = await visitor.get('/dashboard')
      expect(down.status).toBe(503)
      expect(await down.text()).toContain('服务暂时不可用')
      // Nothing clears the session cookie.
      expect(down.headers.getSetCookie().some((c) => c.startsWith('__session=;'))).toBe(false)
      expect(visitor.cookies.get('__session')).toBe(cookieBefore)
    } finally {
      await server.start()
    }
    const back = await visitor.get('/dashboard')
    expect(back.status).toBe(200)
  })

  it('keeps both of two parallel requests signed in when the token is expiring', async () => {
    const visitor = await signedIn(await relay.signUp())
    const cookie = visitor.cookieHeader()
    const [a, b] = await Promise.all([visitor.get('/dashboard', cookie), visitor.get('/dashboard', cookie)])
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    for (const response of [a, b]) {
      const session = response.headers.getSetCookie().find((c) => c.startsWith('__session='))
      // Each refreshed and wrote a new session; neither was logged out.
      expect(session).toBeDefined()
      expect(session!.startsWith('__session=;')).toBe(false)
      const next = new Visitor(handle)
      next.keep(response)
      const later = await next.get('/dashboard')
      expect(later.status).toBe(200)
    }
  })

  it('signs out when the relay refuses the session', async () => {
    const account = await relay.signUp()
    const visitor = await signedIn(account)
    // A password reset revokes every refresh token of the account, the portal's included.
    const ip = relay.uniqueIp()
    relay.clock.advance(61_000) // one code a minute per address: the sign-up just sent one
    const mailed = relay.smtp.messages(account.email).length
    const sent = await relay.request('POST', '/api/auth/send-reset-code', { body: { email: account.email }, ip })
    expect(sent.status).toBe(200)
    // The code is mailed after the answer.
    await vi.waitFor(() => expect(relay.smtp.messages(account.email)).toHaveLength(mailed + 1))
    const reset = await relay.request('POST', '/api/auth/reset-password', {
      body: { email: account.email, code: relay.lastCode(account.email), new_password: 'another password', confirm_password: 'another password' },
      ip,
    })
    expect(reset.status).toBe(200)
    const response = await visitor.get('/dashboard')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/auth/login?redirectTo=%2Fdashboard&reason=expired')
    expect(response.headers.getSetCookie().some((c) => c.startsWith('__session=;'))).toBe(true)
  })
})
