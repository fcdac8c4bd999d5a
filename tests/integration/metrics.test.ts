/**
 * `GET /metrics` scraped by a real Prometheus server (Debian's `prometheus`) from the production
 * server, after scripted calls through the loopback fake provider that end every way a call ends:
 * answered (streamed and whole), failed, cut, refused by the provider and refused by the relay.
 * What Prometheus then answers must equal the usage log, the ledger and the console's overview. On PostgreSQL the server
 * runs two workers, and one scrape must count both.
 *
 * Needs the portal build (`npm run build`) and `/usr/bin/prometheus` (`.ci/run` installs it).
 */
import { spawnSync } from 'node:child_process'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { operatorOverview, refreshOperatorStats } from '../../relay/admin/overview.ts'
import { relayConfigSchema } from '../../relay/config.ts'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../fixtures/ledger.ts'
import { prometheusBinary, prometheusInstalled, promtoolBinary, startPrometheus, type Prometheus } from '../fixtures/prometheus.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer, type SeededCustomer } from '../fixtures/production-server.ts'

const metricsToken = 'metrics-test-token-0123456789'
const model = 'claude-metrics-test'

const canRun = prometheusInstalled
if (!canRun) console.warn(`metrics.test.ts skipped: ${prometheusBinary} and ${promtoolBinary} are needed (apt-get install prometheus)`)

describe.skipIf(!canRun).each(databaseKinds())('metrics scraped by Prometheus (%s)', (kind) => {
  let database: TestDatabase
  let db: Database
  let provider: FakeProvider
  let server: ProductionServer
  let customer: SeededCustomer
  let prometheus: Prometheus
  const workers = kind === 'postgres' ? 2 : 1

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    server = await startProductionServer(database, { METRICS_TOKEN: metricsToken, WORKERS: String(workers), RELAY_INSTANCE: 'metrics-test' })
    await vi.waitFor(() => expect(server.output().match(/Portal listening/g)?.length).toBe(workers), { timeout: 60_000, interval: 100 })
    db = database.open()
    provider = await startFakeProvider()
    await serveModel(db, model, provider.url)
    customer = await seedCustomer(server, db, 1_000_000)
    prometheus = await startPrometheus(`127.0.0.1:${server.port}`, metricsToken)
  }, 120_000)

  afterAll(async () => {
    await prometheus?.stop()
    await server?.stop()
    await provider?.close()
    await db?.destroy()
    await database?.dispose()
  })

  const call = async (body: Record<string, unknown>) => {
    const answer = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      // A connection per call, so both workers serve some.
      headers: { 'x-api-key': customer.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }], ...body }),
    })
    await answer.arrayBuffer().catch(() => null)
    return answer.status
  }

  it('answers only the token', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401)
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer not-the-token-0123456789' } })).status).toBe(401)
    const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    expect(scraped.status).toBe(200)
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  })

  it('counts what the usage log and the ledger hold', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push(await call({ stream: i % 2 === 0 }))
    provider.queue({ kind: 'fail', status: 400 })
    statuses.push(await call({}))
    provider.queue({ kind: 'cut', afterEvents: 3 })
    statuses.push(await call({ stream: true }))
    provider.queue({ kind: 'fail', status: 500 })
    statuses.push(await call({}))
    // Refused by the relay itself: no price for the model.
    statuses.push(await call({ model: 'claude-unpriced-metrics' }))
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 400, 200, 502, 400])

    const recorded = async () => (await db.selectFrom('proxy_calls').select('id').where('user_id', '=', customer.userId).execute()).length
    await expect.poll(recorded, { timeout: 10_000 }).toBe(10)
    // The relay's own refusal is on record with its reason; the metrics count it apart, by reason.
    const relayRefusals = await db.selectFrom('proxy_calls').select('refusal').where('user_id', '=', customer.userId).where('refusal', 'is not', null).execute()
    expect(relayRefusals).toEqual([{ refusal: 'unknown_model' }])
    const byOutcome = await db
      .selectFrom('proxy_calls')
      .select(['outcome', sql<number>`count(*)`.as('calls'), sql<number>`sum(points)`.as('points'), sql<number>`sum(input_tokens)`.as('input'), sql<number>`sum(output_tokens)`.as('output')])
      .where('user_id', '=', customer.userId)
      .where('refusal', 'is', null)
      .groupBy('outcome')
      .execute()
    const figure = (outcome: string, field: 'calls' | 'points' | 'input' | 'output') => Number(byOutcome.find((row) => row.outcome === outcome)?.[field] ?? 0)
    const total = (field: 'points' | 'input' | 'output') => byOutcome.reduce((sum, row) => sum + Number(row[field]), 0)
    const consumed = await db.selectFrom('points_ledger').select(sql<number>`-sum(change)`.as('points')).where('user_id', '=', customer.userId).where('type', '=', 'consumed').executeTakeFirstOrThrow()

    const expected = {
      [`sum(relay_calls_total{outcome="answered"})`]: figure('completed', 'calls'),
      [`sum(relay_calls_total{outcome="refused"})`]: figure('refused', 'calls'),
      [`sum(relay_calls_total{outcome="cut"})`]: figure('cut', 'calls') + figure('abandoned', 'calls'),
      [`sum(relay_calls_total{outcome="failed"})`]: figure('failed', 'calls'),
      [`sum(relay_points_charged_total{model="${model}"})`]: total('points'),
      [`sum(relay_tokens_total{model="${model}",kind="input"})`]: total('input'),
      [`sum(relay_tokens_total{model="${model}",kind="output"})`]: total('output'),
      [`sum(relay_refusals_total{reason="unknown_model"})`]: 1,
      [`sum(relay_provider_errors_total{class="status_500"})`]: 1,
    }
    expect(Object.values(expected).slice(0, 4)).toEqual([6, 1, 1, 1])
    // The usage log's points are the ledger's.
    expect(total('points')).toBe(Number(consumed.points))
    await expect
      .poll(async () => Object.fromEntries(await Promise.all(Object.keys(expected).map(async (q) => [q, await prometheus.query(q)]))), { timeout: 20_000, interval: 500 })
      .toEqual(expected)
    // The console's overview counts the same calls the same way: one table of outcome labels for both
    // (contract/admin-ops.ts), the relay's refusals apart, the ledger's points (count_tokens is free and not on record).
    const services = { db, clock: { now: () => Date.now() }, config: relayConfigSchema.parse({ databaseUrl: database.url, jwtSecrets: ['metrics-test-jwt-secret-0123456789abcdef'] }) }
    await refreshOperatorStats(services, { settleLagMs: 0 })
    const { totals } = await operatorOverview(services, '24h')
    const metric = async (query: string) => (await prometheus.query(query)) ?? 0
    expect({ calls: totals.calls, answered: totals.answered, failed: totals.failures, cut: totals.cut, refused: totals.refused, relay_refused: totals.relay_refused, points: totals.points }).toEqual({
      calls: await metric('sum(relay_calls_total{api!="count_tokens"})'),
      answered: await metric('sum(relay_calls_total{api!="count_tokens",outcome="answered"})'),
      failed: await metric('sum(relay_calls_total{api!="count_tokens",outcome="failed"})'),
      cut: await metric('sum(relay_calls_total{api!="count_tokens",outcome="cut"})'),
      refused: await metric('sum(relay_calls_total{api!="count_tokens",outcome="refused"})'),
      relay_refused: await metric('sum(relay_refusals_total)'),
      points: await metric('sum(relay_points_charged_total)'),
    })
    // The figures above matched with both workers serving calls: one scrape counted both.
    if (workers > 1) {
      const owners = await db.selectFrom('points_holds').select('owner').distinct().where('user_id', '=', customer.userId).execute()
      expect(owners.length).toBe(2)
    }
    await expectLedgerInvariants(db)
  })

  it('is an exposition promtool accepts', async () => {
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text()
    expect(text).toContain('portal_requests_total')
    expect(text).toContain('relay_calls_in_flight')
    const checked = spawnSync(promtoolBinary, ['check', 'metrics'], { input: text, encoding: 'utf8' })
    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.status).toBe(0)
  })
})
