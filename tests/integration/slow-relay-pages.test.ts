/**
 * No portal page waits on the relay longer than its budget (`pageBudgetMs`, 10 s): ten signed-in
 * pages loaded at once while the relay does not answer are each the "service slow" page (504), the
 * session kept. The stand-in never answers while the pages load, so a page that waited for the
 * relay would never come (the test's timeout), and one that came did not wait for it.
 *
 * - The embedded relay (the default: `npm start`) runs in the portal's process, so aborting the
 *   Request of a call does not stop it; here it waits on a PostgreSQL behind a loopback proxy that
 *   drops everything (`DATABASE_TIMEOUT_MS` long), as the relay does on a database that hangs.
 * - A relay elsewhere (`RELAY_URL`) is reached over HTTP: here a real relay behind the same kind
 *   of proxy, so the link carries the sign-ins and then goes silent.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { hashPassword } from '../../relay/auth/passwords.ts'
import { currentConfig } from '../../relay/config.ts'
import { embeddedRelayKey } from '../../app/utils/relay-transport.server.ts'
import type { Database } from '../../relay/db/open-database.ts'
import { insertUser } from '../../relay/users/users.ts'
import { startEmbeddedRelay, type EmbeddedRelay } from '../../server/embedded-relay.ts'
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../fixtures/databases.ts'
import { startTestRelay, type TestRelay } from '../fixtures/relay-harness.ts'
import { serveRelay, type ServedRelay } from '../fixtures/serve-relay.ts'
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.ts'
import { loadPortal, portalTestEnv, Visitor } from './portal-harness.ts'

const pages = 10
const password = 'slow relay password 1'
/** Ten pages of ten seconds each, loaded at once on a busy machine, and the sign-ins before them. */
const testTimeoutMs = 90_000

let signedUp = 0

/** `count` browsers, each signed in through the portal's login form as a user made in `db`. */
async function signedIn(handle: (request: Request) => Promise<Response>, db: Database, count: number): Promise<Visitor[]> {
  const hash = await hashPassword(password, 10)
  const visitors: Visitor[] = []
  for (let i = 0; i < count; i++) {
    const username = `slow${process.pid}x${(signedUp += 1)}`
    await insertUser(db, Date.now(), { username, email: `${username}@example.com`, passwordHash: hash })
    const visitor = new Visitor(handle)
    const login = await visitor.submit('/auth/login', { username, password })
    expect(login.status).toBe(302)
    visitors.push(visitor)
  }
  return visitors
}

/** Every visitor's dashboard, loaded at once while `link` drops everything: each the "service slow" page, its session kept. */
async function expectSlowPages(visitors: Visitor[], link: TcpProxy): Promise<void> {
  link.blackHole()
  const answers = await Promise.all(visitors.map((visitor) => visitor.get('/dashboard')))
  for (const page of answers) {
    expect(page.status).toBe(504)
    expect(await page.text()).toContain('服务响应缓慢')
    expect(page.headers.getSetCookie().some((cookie) => cookie.startsWith('__session=;'))).toBe(false)
  }
}

function proxiedUrl(url: string, proxy: TcpProxy): string {
  const proxied = new URL(url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String(proxy.port)
  return proxied.toString().replace(/\/$/, '')
}

describeOnPostgres('portal pages while the embedded relay waits on a silent database', () => {
  let database: TestDatabase
  let proxy: TcpProxy
  let relay: EmbeddedRelay
  let handle: (request: Request) => Promise<Response>
  let unanswered = 0

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    const direct = new URL(database.url)
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    handle = await loadPortal({
      ...portalTestEnv,
      DATABASE_URL: proxiedUrl(database.url, proxy),
      DATABASE_SCHEMA: database.searchPath!,
      JWT_SECRET: 'slow-relay-pages-jwt-secret-0123456789abcdef0123',
      // The relay's own statement deadline would answer at 10 s; the stand-in is a database that never does.
      DATABASE_TIMEOUT_MS: '600000',
    })
    relay = await startEmbeddedRelay(currentConfig().relay!)
    // The relay's answers are counted as they end: the pages stop waiting for them, the relay
    // goes on, and it may close only once it has answered them all.
    const registry = globalThis as Record<symbol, unknown>
    const fetchRelay = registry[embeddedRelayKey] as (request: Request) => Promise<Response>
    registry[embeddedRelayKey] = (request: Request) => {
      unanswered += 1
      return fetchRelay(request).finally(() => (unanswered -= 1))
    }
  }, 60_000)

  afterAll(async () => {
    // Once the link is back, the relay's statements end and it answers the calls the pages gave up on.
    proxy?.restore()
    await vi.waitFor(() => expect(unanswered).toBe(0), { timeout: 30_000 })
    await relay?.close()
    await proxy?.close()
    await database?.dispose()
  })

  it(`answers ${pages} signed-in pages at once with "service slow" within the page budget`, { timeout: testTimeoutMs }, async () => {
    await expectSlowPages(await signedIn(handle, relay.db, pages), proxy)
  })
})

describe('portal pages while a relay elsewhere does not answer', () => {
  let database: TestDatabase
  let relay: TestRelay
  let served: ServedRelay
  let proxy: TcpProxy
  let handle: (request: Request) => Promise<Response>

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    relay = await startTestRelay(database)
    served = await serveRelay(relay.relay)
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(served.url).port) })
    handle = await loadPortal({ ...portalTestEnv, RELAY_URL: proxiedUrl(served.url, proxy) })
  }, 60_000)

  afterAll(async () => {
    await proxy?.close()
    await served?.stop()
    await relay?.close()
    await database?.dispose()
  })

  it(`answers ${pages} signed-in pages at once with "service slow" within the page budget`, { timeout: testTimeoutMs }, async () => {
    await expectSlowPages(await signedIn(handle, relay.relay.db, pages), proxy)
  })
})
