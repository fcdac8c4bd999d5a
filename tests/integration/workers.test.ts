/**
 * The production server with WORKERS=2 (relay/workers.ts): two processes on one port and one
 * database, each its own relay instance. Calls made at once are served by both, every one is
 * charged once, the ledger holds; SIGHUP restarts the workers one at a time while streams in
 * flight finish; and SIGTERM ends both workers and the primary cleanly.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../fixtures/ledger.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer, type SeededCustomer } from '../fixtures/production-server.ts'

const model = 'claude-workers-test'

describe.each(databaseKinds())('the production server with two workers (%s)', (kind) => {
  let database: TestDatabase
  let db: Database
  let provider: FakeProvider
  let server: ProductionServer | undefined
  let customer: SeededCustomer

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    server = await startProductionServer(database, { WORKERS: '2', RELAY_INSTANCE: 'workers-test' })
    // The second worker starts once the first listens.
    await vi.waitFor(() => expect(server!.output().match(/Portal listening/g)?.length).toBe(2), { timeout: 60_000, interval: 100 })
    db = database.open()
    provider = await startFakeProvider()
    await serveModel(db, model, provider.url)
    customer = await seedCustomer(server, db, 1_000_000)
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await provider?.close()
    await db?.destroy()
    await database?.dispose()
  })

  it('serves calls from both workers, charges each once and keeps the ledger', async () => {
    const calls = 60
    const answers = await Promise.all(
      Array.from({ length: calls }, async () => {
        const answer = await fetch(`${server!.url}/v1/messages`, {
          method: 'POST',
          // A connection per call, so the primary hands them to both workers.
          headers: { 'x-api-key': customer.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }),
        })
        const body = Buffer.from(await answer.arrayBuffer())
        // A whole JSON answer goes to the socket as one head and body (proxy/metered-call.ts), with what Hono's answers carry.
        expect(answer.headers.get('content-length')).toBe(String(body.byteLength))
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
        expect(answer.headers.get('x-relay-request-id')).toMatch(/^\d+$/)
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
        expect(JSON.parse(body.toString('utf8'))).toMatchObject({ type: 'message', role: 'assistant' })
        return answer.status
      }),
    )
    expect(answers).toEqual(Array(calls).fill(200))
    // Settlements are written in groups within moments of each answer.
    await expect.poll(async () => (await db.selectFrom('proxy_calls').select('id').where('user_id', '=', customer.userId).execute()).length, { timeout: 10_000 }).toBe(calls)
    const owners = await db.selectFrom('points_holds').select('owner').distinct().where('user_id', '=', customer.userId).orderBy('owner').execute()
    expect(owners.map((row) => row.owner)).toEqual(['workers-test/0', 'workers-test/1'])
    const open = await db.selectFrom('points_holds').select('id').where('settled_timestamp', 'is', null).execute()
    expect(open).toEqual([])
    const charged = await db.selectFrom('points_ledger').select((eb) => eb.fn.countAll<number>().as('rows')).where('type', '=', 'consumed').executeTakeFirstOrThrow()
    expect(Number(charged.rows)).toBe(calls)
    await expectLedgerInvariants(db)
  }, 120_000)

  it('restarts the workers one at a time on SIGHUP, every stream in flight finishing and charged once', async () => {
    const other = await seedCustomer(server!, db, 1_000_000)
    let resume!: () => void
    const resumed = new Promise<void>((resolve) => (resume = resolve))
    const count = 20
    provider.queue(...Array.from({ length: count }, () => ({ kind: 'pause' as const, afterEvents: 3, resume: resumed })))
    // Each on a connection of its own, handed to either worker; in flight once its head has come.
    const bodies = await Promise.all(
      Array.from({ length: count }, async () => {
        const answer = await fetch(`${server!.url}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': other.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hello' }] }),
        })
        expect(answer.status).toBe(200)
        return { text: answer.text() }
      }),
    )
    server!.signal('SIGHUP')
    // Worker 0 drains now: it waits for its streams, the other worker serves.
    await vi.waitFor(() => expect(server!.output()).toContain('restarting 2 workers one at a time'), { timeout: 10_000, interval: 50 })
    resume()
    const texts = await Promise.all(bodies.map((body) => body.text))
    expect(texts.filter((text) => !text.includes('message_stop'))).toEqual([])
    // Both started again, one after the other, none of them lost.
    await vi.waitFor(() => expect(server!.output().match(/Portal listening/g)?.length).toBe(4), { timeout: 90_000, interval: 100 })
    expect(server!.output()).not.toContain('starting it again')
    expect(server!.alive()).toBe(true)
    const answer = await fetch(`${server!.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': other.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'after' }] }),
    })
    expect(answer.status).toBe(200)
    await answer.arrayBuffer()
    await expect.poll(async () => (await db.selectFrom('proxy_calls').select('id').where('user_id', '=', other.userId).execute()).length, { timeout: 10_000 }).toBe(count + 1)
    const calls = await db.selectFrom('proxy_calls').select(['hold_id', 'outcome', 'points']).where('user_id', '=', other.userId).execute()
    expect(calls.filter((call) => call.outcome !== 'completed')).toEqual([])
    const charged = await db.selectFrom('points_ledger').select(['hold_id', 'change']).where('user_id', '=', other.userId).where('hold_id', 'is not', null).execute()
    for (const call of calls) expect(-charged.filter((row) => row.hold_id === call.hold_id).reduce((sum, row) => sum + Number(row.change), 0)).toBe(Number(call.points))
    expect(await db.selectFrom('points_holds').select('id').where('settled_timestamp', 'is', null).execute()).toEqual([])
    await expectLedgerInvariants(db)
  }, 180_000)

  it('stops both workers and itself on SIGTERM', async () => {
    const stopped = server!
    server = undefined
    expect(await stopped.stop()).toBe(0)
  }, 30_000)
})
