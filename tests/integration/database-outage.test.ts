/**
 * On PostgreSQL, losing database connections never ends the production server: its own
 * connections terminated (idle, and under load), the link cut for 10 s, the link a black hole for
 * 10 s. Calls meanwhile get a retryable 503 in their client's format, calls after the database's
 * return succeed within 5 s, and the ledger invariants hold. The server reaches PostgreSQL
 * through a loopback TCP proxy the test controls; its connections carry an application name of
 * their own, so the test terminates those and no others.
 */
import pg from 'pg'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../fixtures/ledger.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer, type SeededCustomer } from '../fixtures/production-server.ts'
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.ts'
import { elapse } from '../fixtures/time.ts'

const databaseUrl = process.env.TEST_DATABASE_URL
const applicationName = `outage-test-${process.pid}`
const model = 'claude-outage-test'

describeOnPostgres('the production server when PostgreSQL goes away', () => {
  let database: TestDatabase
  let db: Database
  let proxy: TcpProxy
  let provider: FakeProvider
  let server: ProductionServer
  let customer: SeededCustomer

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    db = database.open()
    const direct = new URL(databaseUrl!)
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    const proxied = new URL(databaseUrl!)
    proxied.hostname = '127.0.0.1'
    proxied.port = String(proxy.port)
    provider = await startFakeProvider({ latencyMs: 30 })
    server = await startProductionServer(
      { ...database, url: proxied.toString() },
      { DATABASE_TIMEOUT_MS: '2000', PGAPPNAME: applicationName, LOG_LEVEL: 'error' },
    )
    await serveModel(db, model, provider.url)
    customer = await seedCustomer(server, db, 10_000_000)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    await provider?.close()
    await proxy?.close()
    await db?.destroy()
    await database?.dispose()
  })

  // Every lost connection is handled where it happens, not by the process's last-resort handler.
  afterEach(() => {
    // A failed test leaves no outage behind for the next ones.
    proxy.restore()
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught exception|unhandled rejection/i)
  })

  /** An account call: the user's points. */
  const pointsCall = () => fetch(`${server.url}/api/user/points`, { headers: { authorization: `Bearer ${customer.token}` } })

  /** A metered model call, as an Anthropic client makes it. */
  const modelCall = () =>
    fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': customer.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }),
    })

  async function terminateServerConnections(): Promise<number> {
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    try {
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName])
      return rowCount ?? 0
    } finally {
      await admin.end()
    }
  }

  /** Polls until both kinds of call succeed; resolves with how long that took. */
  async function timeUntilServing(): Promise<number> {
    const start = Date.now()
    for (;;) {
      const [points, message] = await Promise.all([pointsCall(), modelCall()])
      if (points.status === 200 && message.status === 200) return Date.now() - start
      expect([points.status, message.status].every((status) => status === 200 || status === 503)).toBe(true)
      if (Date.now() - start > 15_000) throw new Error(`still ${points.status}/${message.status} 15 s after the database returned`)
      await elapse(100)
    }
  }

  async function expectRetryable503(answer: Response, format: 'envelope' | 'anthropic'): Promise<void> {
    expect(answer.status).toBe(503)
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = await answer.json()
    if (format === 'envelope') expect(body).toMatchObject({ code: 50300, error: { details: { reason: 'unavailable' } } })
    else expect(body).toMatchObject({ type: 'error', error: { type: 'api_error' } })
  }

  it('keeps serving when its idle connections are terminated', async () => {
    for (let i = 0; i < 5; i += 1) expect((await modelCall()).status).toBe(200)
    expect(await terminateServerConnections()).toBeGreaterThan(0)
    await elapse(200)
    expect(server.alive()).toBe(true)
    expect(await timeUntilServing()).toBeLessThan(5_000)
    for (let i = 0; i < 5; i += 1) expect((await pointsCall()).status).toBe(200)
  })

  it('keeps serving when its connections are terminated under load: every call answered 200 or 503', async () => {
    const calls = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? pointsCall() : modelCall()).then((answer) => answer.status, () => 0))
    for (let i = 0; i < 3; i += 1) {
      await elapse(60)
      await terminateServerConnections()
    }
    const statuses = await Promise.all(calls)
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([])
    expect(server.alive()).toBe(true)
    expect(await timeUntilServing()).toBeLessThan(5_000)
  })

  it('answers 503 while the link is cut for 10 s, and serves within 5 s of its return', async () => {
    proxy.cut()
    const cutAt = Date.now()
    await expectRetryable503(await pointsCall(), 'envelope')
    await expectRetryable503(await modelCall(), 'anthropic')
    await elapse(10_000 - (Date.now() - cutAt))
    expect(server.alive()).toBe(true)
    proxy.restore()
    expect(await timeUntilServing()).toBeLessThan(5_000)
  }, 40_000)

  it('answers 503 while the link is a black hole for 10 s, and serves within 5 s of its return', async () => {
    proxy.blackHole()
    const from = Date.now()
    await expectRetryable503(await pointsCall(), 'envelope')
    await expectRetryable503(await modelCall(), 'anthropic')
    await elapse(Math.max(0, 10_000 - (Date.now() - from)))
    expect(server.alive()).toBe(true)
    proxy.restore()
    expect(await timeUntilServing()).toBeLessThan(5_000)
  }, 40_000)

  it('leaves the ledger whole: every hold settled, every balance the sum of its rows', async () => {
    // Settlements the outage refused are written again once the database is back.
    await expect
      .poll(async () => (await db.selectFrom('points_holds').select('id').where('settled_timestamp', 'is', null).execute()).length, { timeout: 30_000, interval: 500 })
      .toBe(0)
    await expectLedgerInvariants(db)
  }, 40_000)
})
