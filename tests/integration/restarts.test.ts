/**
 * Restarts that cut no stream (relay/process-lifecycle.ts, relay/proxy/calls-in-flight.ts): the
 * production server holding 500 streams is sent SIGTERM; it takes no new call, lets every stream
 * finish and charges each once, and exits when the last has ended. With a short
 * SHUTDOWN_GRACE_MS the streams left are cut at its end, each charged what it delivered. On
 * PostgreSQL, two relays restarted one after the other under steady stream load lose no stream
 * and no charge.
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, databaseKinds, describeOnPostgres, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { expectChargedOnce } from '../fixtures/ledger.ts'
import { elapse } from '../fixtures/time.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer, type SeededCustomer } from '../fixtures/production-server.ts'

const model = 'claude-restarts-test'

interface Stream {
  /** The answer's head and its first bytes arrived. */
  started: Promise<void>
  /** Its status, every byte, and whether it ended whole (not cut). */
  done: Promise<{ status: number; text: string; whole: boolean }>
}

/** A streamed call on a connection of its own (a client's). */
function stream(url: string, key: string): Stream {
  let start!: () => void
  const started = new Promise<void>((resolve) => (start = resolve))
  const done = new Promise<{ status: number; text: string; whole: boolean }>((resolve) => {
    const request = http.request(`${url}/v1/messages`, {
      method: 'POST',
      agent: false,
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    })
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        start()
      })
      const end = (whole: boolean) => resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString(), whole })
      response.on('end', () => end(response.complete))
      response.on('error', () => end(false))
    })
    request.on('error', () => resolve({ status: 0, text: '', whole: false }))
    request.end(JSON.stringify({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hello' }] }))
  })
  return { started, done }
}

/** Resolves once the process has seen the signal: its health check no longer answers 200. */
async function draining(server: ProductionServer): Promise<void> {
  await expect.poll(async () => fetch(`${server.url}/resources/health`).then((r) => r.status, () => 0), { timeout: 10_000, interval: 50 }).not.toBe(200)
}

describe.each(databaseKinds())('SIGTERM to a server holding streams (%s)', (kind) => {
  let database: TestDatabase
  let db: Database
  let provider: FakeProvider

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    db = database.open()
    provider = await startFakeProvider()
  })

  afterAll(async () => {
    await provider?.close()
    await db?.destroy()
    await database?.dispose()
  })

  it('lets 500 streams finish, charges each once, takes no new call, and exits after the last', async () => {
    const server = await startProductionServer(database, { SHUTDOWN_GRACE_MS: '120000' })
    try {
      await serveModel(db, model, provider.url)
      const customer = await seedCustomer(server, db, 10_000_000)
      let resume!: () => void
      const resumed = new Promise<void>((resolve) => (resume = resolve))
      const count = 500
      provider.queue(...Array.from({ length: count }, () => ({ kind: 'pause' as const, afterEvents: 3, resume: resumed })))
      const streams = Array.from({ length: count }, () => stream(server.url, customer.key))
      await Promise.all(streams.map((s) => s.started))

      const stopped = server.stop()
      await draining(server)
      // A new call now is refused (503 in Anthropic's format, with Retry-After) or finds no listener.
      const late = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': customer.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'too late' }] }),
      }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() }), () => null)
      if (late) expect(late).toMatchObject({ status: 503, retryAfter: '1', body: { type: 'error', error: { type: 'api_error' } } })
      expect(server.alive()).toBe(true)

      resume()
      const answers = await Promise.all(streams.map((s) => s.done))
      expect(answers.filter((a) => !(a.status === 200 && a.whole && a.text.includes('message_stop')))).toEqual([])
      expect(await stopped).toBe(0)
      // Nothing reached the provider after the signal.
      expect(provider.received).toHaveLength(count)
      const calls = await expectChargedOnce(db, customer.userId)
      expect(calls).toHaveLength(count)
      expect(calls.filter((call) => call.outcome !== 'completed' || call.points <= 0)).toEqual([])
    } finally {
      await server.stop()
      provider.reset()
    }
  }, 300_000)

  it('past a short grace cuts the streams left, charging each what it delivered', async () => {
    const server = await startProductionServer(database, { SHUTDOWN_GRACE_MS: '500' })
    try {
      const customer = await seedCustomer(server, db, 10_000_000)
      const count = 50
      // Never resumed: they outlast the grace.
      provider.queue(...Array.from({ length: count }, () => ({ kind: 'pause' as const, afterEvents: 4, resume: new Promise<void>(() => {}) })))
      const streams = Array.from({ length: count }, () => stream(server.url, customer.key))
      await Promise.all(streams.map((s) => s.started))
      expect(await server.stop()).toBe(0)
      const answers = await Promise.all(streams.map((s) => s.done))
      expect(answers.filter((a) => a.whole)).toEqual([])
      const calls = await expectChargedOnce(db, customer.userId)
      expect(calls).toHaveLength(count)
      // Each delivered its input's usage and a first piece of text: charged that, not nothing, not the whole.
      for (const call of calls) expect(call).toMatchObject({ outcome: 'cut', points: expect.any(Number) })
      expect(calls.filter((call) => call.points <= 0)).toEqual([])
      expect(server.output()).toContain('calls cut at the end of the shutdown grace')
    } finally {
      await server.stop()
      provider.reset()
    }
  }, 300_000)
})

describeOnPostgres('two relays on one database, restarted one after the other under stream load', () => {
  let database: TestDatabase
  let db: Database
  let provider: FakeProvider
  const servers: ProductionServer[] = []

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    db = database.open()
    // Each answer starts 150 ms after its request: calls are always in flight when a signal comes.
    provider = await startFakeProvider({ latencyMs: 150 })
  })

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    await provider?.close()
    await db?.destroy()
    await database?.dispose()
  })

  it('loses no stream that started before a signal, and no charge', async () => {
    const start = (n: number, port?: number) =>
      startProductionServer(database, { RELAY_INSTANCE: `rolling-${n}`, SHUTDOWN_GRACE_MS: '60000', ...(port ? { PORT: String(port) } : {}) })
    servers.push(await start(0), await start(1))
    await serveModel(db, model, provider.url)
    const customer: SeededCustomer = await seedCustomer(servers[0]!, db, 100_000_000)

    // Steady load, as behind a load balancer: each call to the next relay; one refused before its
    // answer began (503 while draining, or no listener) is sent to the next, as a client retries.
    let running = true
    let next = 0
    const failures: string[] = []
    let completed = 0
    const loops = Array.from({ length: 8 }, async () => {
      while (running) {
        const server = servers[next++ % servers.length]!
        const answer = await stream(server.url, customer.key).done
        if (answer.status === 200 && answer.whole && answer.text.includes('message_stop')) completed += 1
        else if (answer.status !== 503 && answer.status !== 0) failures.push(`${answer.status} ${answer.whole ? 'whole' : 'cut'}: ${answer.text.slice(0, 200)}`)
        // Refused: a client's pause before it retries (a relay starting again is not kept busy refusing).
        else await elapse(100)
      }
    })
    const completedBy = async (n: number) => expect.poll(() => completed, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(n)

    await completedBy(50)
    for (const n of [0, 1]) {
      const old = servers[n]!
      expect(await old.stop()).toBe(0)
      servers[n] = await start(n, old.port)
      await completedBy(completed + 50)
    }
    running = false
    await Promise.all(loops)

    expect(failures).toEqual([])
    // The last answers' settlements are written in their relays' next group, just after the client read them.
    const recorded = () => db.selectFrom('proxy_calls').select('id').where('user_id', '=', customer.userId).execute()
    await expect.poll(async () => (await recorded()).length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(completed)
    // Calls answered 503 while a relay drained never reached the ledger.
    const calls = await expectChargedOnce(db, customer.userId)
    expect(calls.filter((call) => call.outcome === 'completed')).toHaveLength(completed)
    expect(calls).toHaveLength(completed)
  }, 300_000)
})
