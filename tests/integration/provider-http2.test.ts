/**
 * Providers over HTTP/2 (`PROVIDER_HTTP2`, relay/proxy/upstream.ts): the relay, a process of its
 * own trusting a loopback provider's certificate through NODE_EXTRA_CA_CERTS, carries many calls
 * on one connection to a provider speaking TLS and HTTP/2, as the real ones do; each stream is
 * charged once; a client hanging up ends its provider stream at once, a slow client holds its
 * stream back, and a silent stream is cut after PROVIDER_TIMEOUT_MS. Without the setting the
 * same provider is spoken to over HTTP/1.1, a connection per call.
 */
import http from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { expectChargedOnce, expectLedgerInvariants } from '../fixtures/ledger.ts'
import { elapse } from '../fixtures/time.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer, type SeededCustomer } from '../fixtures/production-server.ts'
import { loopbackCertificate } from '../fixtures/tls.ts'

const model = 'claude-http2-test'
const providerTimeoutMs = 1500

/** A streamed call on a client connection of its own; `request` lets the test hang up or stop reading. */
function stream(server: ProductionServer, key: string) {
  let request!: http.ClientRequest
  const firstBytes = new Promise<http.IncomingMessage>((resolve) => {
    request = http.request(`${server.url}/v1/messages`, {
      method: 'POST',
      agent: false,
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    })
    request.on('response', resolve)
    request.on('error', () => {})
    request.end(JSON.stringify({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hello' }] }))
  })
  const text = firstBytes.then(
    (response) =>
      new Promise<{ status: number; text: string; whole: boolean }>((resolve) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        const end = (whole: boolean) => resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString(), whole })
        response.on('end', () => end(response.complete))
        response.on('error', () => end(false))
      }),
  )
  return { request: () => request, firstBytes, text }
}

describe.each(databaseKinds())('providers over HTTP/2 (%s)', (kind) => {
  const certificate = loopbackCertificate()
  let database: TestDatabase
  let db: Database
  let provider: FakeProvider
  let server: ProductionServer
  let customer: SeededCustomer

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    db = database.open()
    provider = await startFakeProvider({ tls: certificate })
    server = await startProductionServer(
      database,
      { PROVIDER_HTTP2: 'true', NODE_EXTRA_CA_CERTS: certificate.certPath, PROVIDER_TIMEOUT_MS: String(providerTimeoutMs) },
      { entry: 'relay' },
    )
    await serveModel(db, model, provider.url)
    customer = await seedCustomer(server, db, 100_000_000)
  })

  afterAll(async () => {
    await server?.stop()
    await provider?.close()
    await db?.destroy()
    await database?.dispose()
  })

  afterEach(async () => {
    provider.reset()
    // The relay settles in its own process: once no hold is open, the ledger is whole.
    const openHolds = async () => (await db.selectFrom('points_holds').select('id').where('settled_timestamp', 'is', null).execute()).length
    await expect.poll(openHolds, { timeout: 10_000 }).toBe(0)
    await expectLedgerInvariants(db)
  })

  it('carries two waves of 200 concurrent streams on a few connections, each complete and charged once', async () => {
    const { userId, key } = await seedCustomer(server, db, 100_000_000)
    // One call first: the relay learns that the provider speaks HTTP/2 before the crowd arrives
    // (undici opens a connection for every call that comes while the first is being set up).
    expect((await stream(server, key).text).whole).toBe(true)
    provider.behaviour = { kind: 'paced', events: 40, everyMs: 100 }
    const connectionsBefore = provider.connections
    for (let wave = 0; wave < 2; wave++) {
      // Opened 10 ms apart, as calls arrive: see the note on bursts below.
      const answers = await Promise.all(Array.from({ length: 200 }, async (_, i) => (await elapse(10 * i), stream(server, key).text)))
      for (const answer of answers) {
        expect(answer).toMatchObject({ status: 200, whole: true })
        expect(answer.text).toContain('message_stop')
      }
    }
    expect(provider.received.slice(-400).map((request) => request.httpVersion)).toEqual(Array(400).fill('2.0'))
    // Four-second streams opened over two: most of a wave is in flight at once, more than one connection carries.
    expect(provider.maxInFlight).toBeGreaterThan(100)
    // Over HTTP/1.1 each wave takes a connection per call (200). Over HTTP/2 a connection carries up
    // to 100, and the second wave finds them open: 3 on a quiet machine. Calls that arrive while a
    // new connection is being set up each open one more (undici counts a connection not yet up as
    // busy), and on a loaded machine setting one up takes longer; hence the margin.
    expect(provider.connections - connectionsBefore).toBeLessThan(100)
    const recorded = async () => (await db.selectFrom('proxy_calls').select('id').where('user_id', '=', userId).execute()).length
    await expect.poll(recorded, { timeout: 10_000 }).toBe(401)
    expect(await expectChargedOnce(db, userId)).toHaveLength(401)
  })

  it('ends the provider stream within a second of its client hanging up', async () => {
    provider.queue({ kind: 'hold', afterEvents: 5 })
    const call = stream(server, customer.key)
    const response = await call.firstBytes
    await new Promise((resolve) => response.once('data', resolve))
    const received = provider.received.at(-1)!
    expect(received.httpVersion).toBe('2.0')
    const hungUp = performance.now()
    call.request().destroy()
    expect(await received.done).toBe('aborted')
    expect(performance.now() - hungUp).toBeLessThan(1000)
  })

  it('holds back a stream whose client stops reading, and no other', async () => {
    provider.queue({ kind: 'flood' })
    const call = stream(server, customer.key)
    const response = await call.firstBytes
    response.pause()
    const flooded = provider.received.at(-1)!
    await expect.poll(() => flooded.backPressured, { timeout: 10_000, interval: 20 }).toBe(true)
    const held = flooded.sent.length
    // The same connection still carries other calls while this one waits.
    provider.behaviour = { kind: 'answer' }
    const other = await stream(server, customer.key).text
    expect(other).toMatchObject({ status: 200, whole: true })
    // Held: what the provider wrote grew by no more than the stream's windows in the meantime.
    expect(flooded.sent.length - held).toBeLessThan(16 * 1024 * 1024)
    expect(flooded.backPressured).toBe(true)
    call.request().destroy()
    expect(await flooded.done).toBe('aborted')
  })

  it(`cuts a stream silent for PROVIDER_TIMEOUT_MS (${providerTimeoutMs} ms)`, async () => {
    provider.queue({ kind: 'hold', afterEvents: 5 })
    const before = provider.received.length
    const call = stream(server, customer.key)
    await expect.poll(() => provider.received.length, { timeout: 5000 }).toBe(before + 1)
    const received = provider.received.at(-1)!
    const started = performance.now()
    expect(await received.done).toBe('aborted')
    expect(performance.now() - started).toBeGreaterThanOrEqual(providerTimeoutMs - 200)
    expect((await call.text).whole).toBe(false)
  })
})

describe('providers over HTTP/1.1 without PROVIDER_HTTP2', () => {
  it('speaks HTTP/1.1 to the same provider, a connection per concurrent call', async () => {
    const certificate = loopbackCertificate()
    const database = await createTestDatabase('sqlite')
    const db = database.open()
    const provider = await startFakeProvider({ tls: certificate })
    const server = await startProductionServer(database, { NODE_EXTRA_CA_CERTS: certificate.certPath }, { entry: 'relay' })
    try {
      await serveModel(db, model, provider.url)
      const { key } = await seedCustomer(server, db, 1_000_000)
      provider.behaviour = { kind: 'paced', events: 5, everyMs: 100 }
      const answers = await Promise.all(Array.from({ length: 10 }, () => stream(server, key).text))
      expect(answers.every((answer) => answer.whole)).toBe(true)
      expect(provider.received.map((request) => request.httpVersion)).toEqual(Array(10).fill('1.1'))
      expect(provider.connections).toBeGreaterThanOrEqual(10)
    } finally {
      await server.stop()
      await provider.close()
      await db.destroy()
      await database.dispose()
    }
  })
})
