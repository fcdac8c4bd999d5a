/**
 * The status-line row of `npm run bench:relay`: 64 users' calls, with and without one heavy
 * user's status line (`GET /api/v1/usage`, what Claude Code's status line polls) asked in a loop.
 * The heavy user has BENCH_HEAVY_CALLS relayed calls (1M by default) on the database of
 * bench/seed-history.ts; if the status line read anything that grows with them, it would hold
 * the relay (on SQLite: its event loop) and the 64 users' throughput would drop
 * (docs/decisions/140-benchmarks-on-a-seeded-history.md). Each of the 64 users keeps one call in flight against the provider that
 * thinks first; the same relay serves both halves, without the poller first.
 */
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { relayConfigSchema } from '../relay/config.ts'
import { createLogger } from '../relay/logger.ts'
import { setModelCost } from '../relay/points/model-costs.ts'
import { ProviderKeyBox } from '../relay/proxy/provider-keys.ts'
import { addProvider } from '../relay/proxy/providers.ts'
import { openRuntime } from '../relay/runtime.ts'
import { seededDatabase } from './seed-history.ts'

export interface StatusLineOptions {
  kind: 'sqlite' | 'postgres'
  /** The fake provider that thinks before answering. */
  providerUrl: string
  seconds: number
  jwtSecret: string
  /** Starts the relay on the seeded database; resolves with its URL. */
  startRelay(env: Record<string, string>): Promise<{ url: string }>
}

const model = 'bench-status-line-model'

/** Rows for the benchmark's table: [name, without, with, ratio]. */
export async function statusLineRows(options: StatusLineOptions): Promise<string[][]> {
  const seeded = await seededDatabase(options.kind)
  // The provider's address changes with every run: the seeded database is pointed at this one.
  const config = relayConfigSchema.parse({ databaseUrl: seeded.url, databaseSchema: seeded.searchPath, jwtSecrets: [options.jwtSecret], logLevel: 'error' })
  const runtime = await openRuntime(config, { logger: createLogger('error') })
  const { db, clock } = runtime.deps
  await db.deleteFrom('proxy_providers').execute()
  await setModelCost(db, clock.now(), { model, kind: 'variable', input_points_per_mtok: 300, output_points_per_mtok: 1500 })
  await addProvider(db, new ProviderKeyBox([options.jwtSecret]), clock.now(), { kind: 'anthropic', baseUrl: options.providerUrl, key: 'bench-provider-key-0000', models: [model] })
  await runtime.close()

  const relay = await options.startRelay({ DATABASE_URL: seeded.url, ...(seeded.searchPath ? { DATABASE_SCHEMA: seeded.searchPath } : {}) })
  const agent = new http.Agent({ keepAlive: true, maxSockets: seeded.keys.crowd.length + 1 })
  const body = JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] })
  const call = (key: string) => request(agent, new URL('/v1/messages', relay.url), { method: 'POST', key, body })
  const poll = () => request(agent, new URL('/api/v1/usage', relay.url), { method: 'GET', key: seeded.keys.heavy })

  const totals = { without: { calls: 0, ms: 0 }, with: { calls: 0, ms: 0 } }
  const polls: number[] = []
  /** Every crowd user with one call in flight for `ms`; with `polling`, the heavy user's status line meanwhile. */
  const run = async (polling: boolean, ms: number) => {
    let calls = 0
    const end = performance.now() + ms
    const start = performance.now()
    await Promise.all([
      ...seeded.keys.crowd.map(async (key) => {
        while (performance.now() < end) {
          await call(key)
          calls += 1
        }
      }),
      polling
        ? (async () => {
            while (performance.now() < end) polls.push(await poll())
          })()
        : null,
    ])
    const total = totals[polling ? 'with' : 'without']
    total.calls += calls
    total.ms += performance.now() - start
  }

  const rounds = 4
  const window = (options.seconds * 1000) / rounds
  // Warm up (the relay's pool and compiled code, the provider's sockets), uncounted: the first
  // window counted would otherwise be the slowest, and always fall on the same half.
  await Promise.all([poll(), ...seeded.keys.crowd.map((key) => call(key))])
  await run(false, window)
  Object.assign(totals, { without: { calls: 0, ms: 0 } })
  // Short windows in turn, without and with the poller, in the order ABBA: whatever else the
  // machine does meanwhile, and any drift over the run, falls on both halves alike.
  for (let round = 0; round < rounds; round++) {
    for (const polling of round % 2 === 0 ? [false, true] : [true, false]) await run(polling, window)
  }
  agent.destroy()
  polls.sort((a, b) => a - b)
  const p = (q: number) => polls[Math.min(polls.length - 1, Math.floor(q * polls.length))]!
  const [without, withPolling] = [totals.without.calls / (totals.without.ms / 1000), totals.with.calls / (totals.with.ms / 1000)]
  return [
    [
      `${seeded.keys.crowd.length} users' calls, heavy user's status line polled (${polls.length} polls, p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms)`,
      `${without.toFixed(0)} calls/s`,
      `${withPolling.toFixed(0)} calls/s`,
      `${((withPolling / without) * 100).toFixed(0)} % of without`,
    ],
  ]
}

/** One request, its body read to the end; resolves with its duration in ms. A kept-alive socket the relay closed meanwhile is retried once. */
function request(agent: http.Agent, url: URL, options: { method: string; key: string; body?: string }): Promise<number> {
  return attempt(agent, url, options).catch((error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? attempt(agent, url, options) : Promise.reject(error)))
}

function attempt(agent: http.Agent, url: URL, { method, key, body }: { method: string; key: string; body?: string }): Promise<number> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'x-api-key': key, 'anthropic-version': '2023-06-01' }
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    const req = http.request(url, { method, agent, headers }, (res) => {
      res.on('data', () => {})
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`${method} ${url.pathname}: status ${res.statusCode}`))))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}
