/**
 * While another process holds SQLite's write lock (the operator CLI, a second relay, a backup),
 * the production server keeps serving what does not need the lock, and a call that cannot get it
 * within its budget is answered with a retryable 503 in its client's format, never a 500. The
 * test process plays the other process, holding the lock for 7 s.
 */
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../fixtures/ledger.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer, type SeededCustomer } from '../fixtures/production-server.ts'
import { elapse } from '../fixtures/time.ts'

const model = 'claude-lock-test'

describe('the production server while another process holds the SQLite write lock', () => {
  let database: TestDatabase
  let db: Database
  let provider: FakeProvider
  let server: ProductionServer
  let customer: SeededCustomer

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    server = await startProductionServer(database)
    db = database.open()
    provider = await startFakeProvider()
    await serveModel(db, model, provider.url)
    customer = await seedCustomer(server, db, 1_000_000)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    await provider?.close()
    await db?.destroy()
    await database?.dispose()
  })

  const modelCall = () =>
    fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': customer.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }),
    })

  async function timed(path: string): Promise<{ status: number; ms: number }> {
    const start = performance.now()
    const answer = await fetch(`${server.url}${path}`)
    await answer.arrayBuffer()
    return { status: answer.status, ms: performance.now() - start }
  }

  it('serves pages and files meanwhile, and answers a call that needs the lock 503, not 500', async () => {
    expect((await modelCall()).status).toBe(200)
    const holder = new BetterSqlite3(database.url)
    holder.exec('begin immediate')
    try {
      const waiting = modelCall()
      await elapse(300)
      // The synchronous busy wait used to hold the event loop: a static file took 6.7 s.
      const file = await timed('/favicon.svg')
      const health = await timed('/resources/health')
      expect(file.status).toBe(200)
      expect(health.status).toBe(200)
      expect(Math.max(file.ms, health.ms)).toBeLessThan(1_500)
      const refused = await waiting
      expect(refused.status).toBe(503)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } })
      await elapse(1_500)
    } finally {
      holder.exec('rollback')
      holder.close()
    }
    expect((await modelCall()).status).toBe(200)
    expect(server.alive()).toBe(true)
  }, 30_000)

  it('waits out a lock held briefly: the call succeeds once it is free', async () => {
    const holder = new BetterSqlite3(database.url)
    holder.exec('begin immediate')
    const call = modelCall()
    await elapse(1_000)
    holder.exec('rollback')
    holder.close()
    expect((await call).status).toBe(200)
  })

  it('leaves the ledger whole', async () => {
    await expect
      .poll(async () => (await db.selectFrom('points_holds').select('id').where('settled_timestamp', 'is', null).execute()).length, { timeout: 15_000 })
      .toBe(0)
    await expectLedgerInvariants(db)
  })
})
