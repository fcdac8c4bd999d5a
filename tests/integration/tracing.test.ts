/**
 * Traces: the production server with `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a loopback OTLP/HTTP
 * receiver exports one span per relayed call, with OpenTelemetry's GenAI attributes equal to the
 * call's record; without the variable it loads nothing of OpenTelemetry's SDK.
 *
 * Needs the portal build (`npm run build`). One database: nothing here depends on which.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { startOtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer } from '../fixtures/production-server.ts'

const model = 'claude-tracing-test'
const dir = mkdtempSync(join(tmpdir(), 'tracing-'))
const moduleTracer = `--import ${resolve('tests/fixtures/loaded-modules.mjs')}`

/** The production server, and the modules it loaded by the time it answered its first call. */
async function serve(database: TestDatabase, name: string, env: Record<string, string>) {
  const loaded = join(dir, `${name}.txt`)
  const server = await startProductionServer(database, { NODE_OPTIONS: moduleTracer, LOADED_MODULES_FILE: loaded, ...env })
  return { server, loaded: () => readFileSync(loaded, 'utf8') }
}

type Served = Awaited<ReturnType<typeof serve>>

describe('traces over OTLP/HTTP', () => {
  let database: TestDatabase
  let db: Database
  let provider: FakeProvider
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>
  let on: Served
  let off: Served

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    receiver = await startOtlpReceiver()
    provider = await startFakeProvider()
    // The first start migrates the database.
    off = await serve(database, 'off', {})
    db = database.open()
    await serveModel(db, model, provider.url)
    on = await serve(database, 'on', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' })
  }, 120_000)

  afterAll(async () => {
    await Promise.all([on?.server.stop(), off?.server.stop()])
    await provider?.close()
    await receiver?.close()
    await db?.destroy()
    await database?.dispose()
    rmSync(dir, { recursive: true, force: true })
  })

  const call = async (server: ProductionServer, key: string) => {
    const answer = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hello' }] }),
    })
    await answer.text()
    return answer.status
  }

  it('exports one span per relayed call with the GenAI attributes of its record', async () => {
    const { server, loaded } = on
    const customer = await seedCustomer(server, db, 1_000_000)
    expect(await call(server, customer.key)).toBe(200)
    const relayed = (): ReceivedSpan[] => receiver.spans.filter((span) => span.name === 'POST /v1/messages')
    await expect.poll(() => relayed().length, { timeout: 10_000 }).toBe(1)
    await expect.poll(async () => (await db.selectFrom('proxy_calls').selectAll().where('user_id', '=', customer.userId).execute()).length).toBe(1)
    const record = await db.selectFrom('proxy_calls').selectAll().where('user_id', '=', customer.userId).executeTakeFirstOrThrow()
    const [span] = relayed()
    expect(span).toMatchObject({
      service: 'relay-portal',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.request.model': model,
        'gen_ai.usage.input_tokens': Number(record.input_tokens),
        'gen_ai.usage.output_tokens': Number(record.output_tokens),
        'http.response.status_code': 200,
        'relay.outcome': 'completed',
        'relay.points': Number(record.points),
      },
    })
    // The portal's requests have theirs, named by route id.
    await expect.poll(() => receiver.spans.some((s) => s.name === 'GET routes/resources/health'), { timeout: 10_000 }).toBe(true)
    expect(loaded()).toContain('@opentelemetry/sdk-trace')
  })

  it('loads nothing of OpenTelemetry without the variable', async () => {
    const { server, loaded } = off
    const customer = await seedCustomer(server, db, 1_000_000)
    expect(await call(server, customer.key)).toBe(200)
    expect(loaded()).toContain('server/main.ts')
    expect(loaded()).not.toContain('@opentelemetry')
  })
})
