/**
 * Long streams end to end, over HTTP on loopback as relay/main.ts serves them: a client that reads
 * slowly holds the provider back (the relay buffers a bounded amount for it), a client that hangs
 * up ends the provider's request at once and pays for what it was sent, and a provider that
 * falls silent is cut after PROVIDER_TIMEOUT_MS.
 */
import { once } from 'node:events'
import net from 'node:net'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { answerPieces, startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, balanceOf, customer, ledgerOf, priceModel, settled } from '../../tests/fixtures/proxy.ts'
import { serveRelay, type ServedRelay } from '../../tests/fixtures/serve-relay.ts'
import { elapse } from '../../tests/fixtures/time.ts'
import { tokensOfBytes } from './usage-meter.ts'

const providerTimeoutMs = 1000
/**
 * The most a provider may have written to a stream whose client reads a byte a second: what the
 * relay holds for it (its stream's and sockets' buffers, under a megabyte) plus the loopback
 * sockets' kernel buffers on both hops, which Linux grows to several megabytes (about 8 MB in
 * all here). Without back-pressure the provider writes hundreds of megabytes a second.
 */
const slowClientBound = 24 * 1024 * 1024

/** A raw HTTP/1.1 client whose socket reads only when told (`read(n)`), not as bytes arrive. */
function slowClient(relay: ServedRelay, key: string, body: unknown) {
  const { port } = new URL(relay.url)
  const socket = net.connect(Number(port), '127.0.0.1')
  socket.on('error', () => {})
  const text = JSON.stringify(body)
  socket.write(
    `POST /v1/messages HTTP/1.1\r\nhost: relay.test\r\ncontent-type: application/json\r\nx-api-key: ${key}\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  )
  socket.pause()
  return socket
}

/** One byte of what `socket` received, waiting for it to arrive if need be. */
async function readByte(socket: net.Socket): Promise<Buffer> {
  for (;;) {
    const byte = socket.read(1) as Buffer | null
    if (byte) return byte
    await once(socket, 'readable')
  }
}

/** Reads `socket` until `until` holds for what was received; resolves with it. */
function readUntil(socket: net.Socket, until: (received: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = ''
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8')
      if (!until(received)) return
      socket.off('data', onData)
      socket.pause()
      resolve(received)
    }
    socket.on('data', onData)
    socket.once('close', () => reject(new Error(`closed after ${received.length} characters`)))
    socket.resume()
  })
}

describeEachDatabase(
  'back-pressure and long streams over HTTP',
  (ctx) => {
    let provider: FakeProvider
    let relay: ServedRelay

    beforeAll(async () => {
      provider = await startFakeProvider()
      relay = await serveRelay(ctx.relay)
      await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['bp-*'] })
      // A point per token in and out: the charge is the usage.
      await priceModel(ctx, { model: 'bp-metered', kind: 'variable', input_points_per_mtok: 1_000_000, output_points_per_mtok: 1_000_000 })
      // Almost free: a flood of output costs a point or two.
      await priceModel(ctx, { model: 'bp-flood', kind: 'variable', input_points_per_mtok: 1, output_points_per_mtok: 1 })
    })
    afterAll(async () => {
      await relay?.stop()
      await provider?.close()
    })
    afterEach(async () => {
      provider.reset()
      await expectLedgerInvariants(ctx.relay.db)
    })

    const stream = (model: string) => ({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hi' }] })

    it('holds a provider back while its client reads a byte a second, buffering a bounded amount', async () => {
      const user = await customer(ctx, 1000)
      provider.queue({ kind: 'flood' })
      const socket = slowClient(relay, user.key, stream('bp-flood'))
      await expect.poll(() => provider.received.at(-1)?.backPressured, { timeout: 10_000, interval: 20 }).toBe(true)
      const call = provider.received.at(-1)!
      for (let second = 0; second < 3; second++) {
        // The client's pace: a byte a second.
        await elapse(1000)
        expect(await readByte(socket)).toHaveLength(1)
        expect(call.backPressured).toBe(true)
      }
      // Still held back after three seconds: the relay pulled a bounded amount and waits.
      expect(call.sent.length).toBeLessThan(slowClientBound)
      socket.destroy()
      expect(await call.done).toBe('aborted')
      await settled(ctx, user.id, 1)
    })

    it('cancels the provider request within a second of its client hanging up mid-stream, and charges what was delivered', async () => {
      const user = await customer(ctx, 10_000)
      // message_start, content_block_start, ping and two text deltas; then the provider keeps the stream open.
      provider.queue({ kind: 'hold', afterEvents: 5 })
      const socket = slowClient(relay, user.key, stream('bp-metered'))
      const [first, second] = answerPieces()
      await readUntil(socket, (received) => received.includes(second!))
      const call = provider.received.at(-1)!
      const hungUp = performance.now()
      socket.destroy()
      expect(await call.done).toBe('aborted')
      expect(performance.now() - hungUp).toBeLessThan(1000)

      // Input as message_start reported it (120), output what was delivered.
      const charged = 120 + tokensOfBytes(Buffer.byteLength(first! + second!))
      await settled(ctx, user.id, 1)
      expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -charged })
      expect(await balanceOf(ctx, user.token)).toEqual({ ...(await balanceOf(ctx, user.token)), balance: 10_000 - charged, frozen_points: 0 })
    })

    it(`cuts a provider silent for PROVIDER_TIMEOUT_MS (${providerTimeoutMs} ms) mid-stream, ends the client's stream and charges what was delivered`, async () => {
      const user = await customer(ctx, 10_000)
      provider.queue({ kind: 'hold', afterEvents: 5 })
      const socket = slowClient(relay, user.key, stream('bp-metered'))
      const [first, second] = answerPieces()
      await readUntil(socket, (received) => received.includes(second!))
      const silent = performance.now()
      const call = provider.received.at(-1)!
      expect(await call.done).toBe('aborted')
      const waited = performance.now() - silent
      expect(waited).toBeGreaterThanOrEqual(providerTimeoutMs - 50)
      expect(waited).toBeLessThan(providerTimeoutMs + 2000)
      // The client's chunked stream is broken off, not ended as if complete.
      const rest = await new Promise<string>((resolve) => {
        let text = ''
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
        socket.once('close', () => resolve(text))
        socket.resume()
      })
      expect(rest).not.toContain('0\r\n\r\n')

      const charged = 120 + tokensOfBytes(Buffer.byteLength(first! + second!))
      await settled(ctx, user.id, 1)
      expect((await ledgerOf(ctx, user.id)).at(-1)).toMatchObject({ type: 'consumed', change: -charged })
      const recorded = await ctx.relay.db.selectFrom('proxy_calls').select(['outcome', 'points']).where('user_id', '=', user.id).executeTakeFirstOrThrow()
      expect(recorded).toEqual({ outcome: 'cut', points: charged })
    })
  },
  { providerTimeoutMs },
)
