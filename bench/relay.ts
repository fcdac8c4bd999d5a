/**
 * `npm run bench:relay`: what the metered relay adds to a call. Side by side, in one run: calls
 * straight to a fake provider, and the same calls through the relay — served exactly as in
 * production (`relay/main.ts`: @hono/node-server on loopback) on a temporary SQLite file, each
 * call authenticated by an API key, priced as a variable-cost model (estimate frozen, settled from
 * the reported usage) and recorded. Non-streaming and streaming (SSE): latency percentiles one
 * call at a time, direct and relayed in turn, against a provider that answers at once, so the
 * relay's own cost is all there is to see; then throughput with several calls in flight, against
 * that provider (the relay's capacity) and against one that thinks first, as real ones do.
 * Bounded counts and time; loopback only; prints a table and asserts nothing.
 *
 * Options (environment): BENCH_CALLS (sequential calls per case, default 2000; after 1000 to warm up), BENCH_SECONDS
 * (throughput window per case, default 4), BENCH_CONCURRENCY (default 8), BENCH_PROVIDER_LATENCY_MS
 * (how long the thinking provider waits before each answer; default 20), BENCH_PROFILE_DIR (write
 * a V8 CPU profile of the relay there), BENCH_DATABASE=postgres (a temporary schema in
 * TEST_DATABASE_URL's database instead of a temporary SQLite file), BENCH_RELAYS (relay processes
 * on the one database, each call sent to the next in turn; default 1), BENCH_WORKERS (WORKERS of
 * each relay, relay/workers.ts; default 1), BENCH_STATUS_LINE=only (just the status-line row of
 * bench/relay-status-line.ts, which runs on the seeded database of bench/seed-history.ts) or
 * BENCH_STATUS_LINE=skip (every row but that one).
 *
 * Each throughput row through the relay has the relay processes' CPU time (user and system, their
 * workers included) per call beside it, and on PostgreSQL running on this machine the server's
 * (all its processes); the instant provider's rows also a plain pipe's under the
 * same load (bench/pipe-proxy.ts: the floor of an HTTP hop). On PostgreSQL one more row: a relay of WORKERS=2, 64
 * streamed calls in flight from 64 users to the thinking provider, as % of direct.
 *
 * Besides: one user's calls against 64 users' at 8 and 32 in flight (one user's calls all take
 * points from one account), and, after everything, the ledger's invariants checked against the
 * database (tests/fixtures/ledger.ts); a broken one fails the run.
 */
import http from 'node:http'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createTestDatabase, type TestDatabase } from '../tests/fixtures/databases.ts'
import { unusedPort } from '../tests/fixtures/ports.ts'
import { checkLedger, cpuTimeMs, jwtSecret, localPostgresPid, prepare, startChild } from './relay-fixtures.ts'
import { statusLineRows } from './relay-status-line.ts'

const calls = Number(process.env.BENCH_CALLS ?? 2000)
const seconds = Number(process.env.BENCH_SECONDS ?? 4)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8)
const thinkingMs = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 20)
const instantModel = 'bench-model'
const thinkingModel = 'bench-thinking-model'
const warmup = 1000
const relayCount = Number(process.env.BENCH_RELAYS ?? 1)
const workers = Number(process.env.BENCH_WORKERS ?? 1)
const metricsToken = 'bench-metrics-token-0123456789'
/** Users of the many-users rows. */
const userCount = 64

interface Target {
  url: URL
  headers: Record<string, string>
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(concurrency, 64) })

/** One call, its body read to the end; resolves with its duration in ms. */
function call(target: Target, body: string): Promise<number> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(
      target.url,
      { method: 'POST', agent, headers: { ...target.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.on('data', () => {})
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`status ${res.statusCode}`))))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

type Percentiles = { p50: number; p90: number; p99: number }

/**
 * One call at a time, direct and relayed in turn: whatever else the machine does meanwhile
 * (another process, a CPU's clock) falls on both sides alike.
 */
async function latency(direct: Target, relayed: readonly Target[], body: string): Promise<[Percentiles, Percentiles]> {
  for (let i = 0; i < warmup; i++) await Promise.all([call(direct, body), call(relayed[i % relayed.length]!, body)])
  const samples: [number[], number[]] = [[], []]
  const deadline = performance.now() + 60_000
  while (samples[0].length < calls && performance.now() < deadline) {
    samples[0].push(await call(direct, body))
    samples[1].push(await call(relayed[samples[1].length % relayed.length]!, body))
  }
  return [percentiles(samples[0]), percentiles(samples[1])]
}

function percentiles(samples: number[]): Percentiles {
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99) }
}

/**
 * Calls per second with `inFlight` calls in flight, each call to the next of `targets` in turn;
 * and the CPU time per call of the processes `pids` (with their children: a relay's workers), and
 * of the database server's (`databasePids`).
 */
async function throughput(
  targets: readonly Target[],
  body: string,
  { inFlight = concurrency, pids = [], databasePids = [] }: { inFlight?: number; pids?: number[]; databasePids?: number[] } = {},
) {
  const cpuBefore = cpuTimeMs(pids)
  const databaseBefore = cpuTimeMs(databasePids)
  let done = 0
  let next = 0
  const end = performance.now() + seconds * 1000
  const start = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        await call(targets[next++ % targets.length]!, body)
        done += 1
      }
    }),
  )
  const elapsed = (performance.now() - start) / 1000
  const [cpuAfter, databaseAfter] = [cpuTimeMs(pids), cpuTimeMs(databasePids)]
  const perCall = (before: number | null, after: number | null) => (before !== null && after !== null ? (after - before) / done : null)
  return { perSecond: done / elapsed, cpuMs: perCall(cpuBefore, cpuAfter), databaseCpuMs: perCall(databaseBefore, databaseAfter) }
}

/** Windows of equal length taken together: their mean rate and CPU per call. */
function meanWindow(windows: readonly { perSecond: number; cpuMs: number | null }[]) {
  const perSecond = windows.reduce((sum, w) => sum + w.perSecond, 0) / windows.length
  const cpu = windows.every((w) => w.cpuMs !== null) ? windows.reduce((sum, w) => sum + w.cpuMs! * w.perSecond, 0) / (perSecond * windows.length) : null
  return { perSecond, cpuMs: cpu }
}

const ms = (n: number) => `${n.toFixed(3)} ms`

async function main(): Promise<void> {
  const [instant, thinking] = await Promise.all([
    startChild(['tests/fixtures/fake-provider.ts'], {}),
    startChild(['tests/fixtures/fake-provider.ts', '--latency-ms', String(thinkingMs)], {}),
  ])
  const kind = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
  if (process.env.BENCH_STATUS_LINE !== 'only') {
    const database = await createTestDatabase(kind)
    try {
      await run(database, instant.url, thinking.url)
    } finally {
      await database.dispose()
    }
  }
  if (process.env.BENCH_STATUS_LINE !== 'skip') await statusLine(kind, thinking.url)
}

/** The status-line row, on the seeded database (bench/relay-status-line.ts). */
async function statusLine(kind: 'sqlite' | 'postgres', providerUrl: string): Promise<void> {
  const startRelay = async (env: Record<string, string>) =>
    startChild(['relay/main.ts'], { NODE_ENV: 'production', PORT: String(await unusedPort()), JWT_SECRET: jwtSecret, LOG_LEVEL: 'error', ...env })
  const rows = await statusLineRows({ kind, providerUrl, seconds, jwtSecret, startRelay })
  console.log(`\nWith history: ${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}, the database of bench/seed-history.ts, provider thinking ${thinkingMs} ms.`)
  for (const row of rows) console.log(row.join('   '))
}

async function run(database: TestDatabase, instantUrl: string, thinkingUrl: string): Promise<void> {
  const keys = await prepare(database, [[instantModel, instantUrl], [thinkingModel, thinkingUrl]], userCount)
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []
  const relayEnv = (port: number, extra: Record<string, string> = {}) => ({
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: database.url,
    ...(database.searchPath ? { DATABASE_SCHEMA: database.searchPath } : {}),
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'error',
    WORKERS: String(workers),
    ...extra,
  })
  const relays = await Promise.all(
    Array.from({ length: relayCount }, async () =>
      startChild([...profile, 'relay/main.ts'], relayEnv(await unusedPort()), workers),
    ),
  )
  // The same relay with METRICS_TOKEN, to set its figures beside the first's.
  const measured = await startChild(['relay/main.ts'], relayEnv(await unusedPort(), { METRICS_TOKEN: metricsToken }), workers)
  const pids = relays.map((relay) => relay.pid)
  const target = (base: string, headers: Record<string, string> = {}): Target => ({
    url: new URL('/v1/messages', base),
    headers: { 'anthropic-version': '2023-06-01', ...headers },
  })
  // One user's calls, to each relay in turn; and every user's, spread the same way.
  const relayed = relays.map((relay) => target(relay.url, { 'x-api-key': keys[0]! }))
  const everyUser = keys.map((key, i) => target(relays[i % relays.length]!.url, { 'x-api-key': key }))

  const store = database.kind === 'postgres' ? 'PostgreSQL (a temporary schema)' : 'SQLite (a temporary file)'
  const [load1] = loadavg()
  console.log(`Relay benchmark: loopback, ${cpus().length} CPUs (load average ${load1!.toFixed(1)} at start), ${store}, Node ${process.version}`)
  console.log(`${relayCount} relay process${relayCount === 1 ? '' : 'es'} on the one database, WORKERS=${workers} each.`)
  console.log(`Latency: ${calls} calls one at a time, direct and relayed in turn, to a fake provider that answers at once.`)
  console.log(`Throughput: ${concurrency} calls in flight for ${seconds} s, to that provider and to one that thinks ${thinkingMs} ms first.\n`)
  // PostgreSQL's CPU beside the relay's, when it runs here: on two cores it is a share of the same budget.
  const server = database.kind === 'postgres' ? await localPostgresPid(database) : null
  const databasePids = server === null ? [] : [server]
  /** The PostgreSQL column's cell, when there is one. */
  const databaseCell = (cell: string) => (server === null ? [] : [cell])
  const header = ['', 'direct', 'via relay', 'relay adds', 'relay CPU per call', ...databaseCell('PostgreSQL CPU per call')]
  const rows: string[][] = []
  const cpuCell = (cpuMs: number | null) => (cpuMs === null ? '' : ms(cpuMs))
  const throughputRow = (name: string, d: { perSecond: number }, r: { perSecond: number; cpuMs: number | null; databaseCpuMs: number | null }) =>
    rows.push([
      name,
      `${d.perSecond.toFixed(0)} calls/s`,
      `${r.perSecond.toFixed(0)} calls/s`,
      `${((r.perSecond / d.perSecond) * 100).toFixed(0)} % of direct`,
      cpuCell(r.cpuMs),
      ...databaseCell(cpuCell(r.databaseCpuMs)),
    ])
  const body = (model: string, stream: boolean) => JSON.stringify({ model, max_tokens: 256, stream, messages: [{ role: 'user', content: 'Hello' }] })
  // The floor beside each instant-provider row: a plain pipe under the same load (bench/pipe-proxy.ts).
  const pipe = await startChild(['bench/pipe-proxy.ts', instantUrl, '0'], {})
  const floorRows: string[][] = []
  for (const stream of [false, true]) {
    const name = stream ? 'streaming' : 'non-streaming'
    const [d, r] = await latency(target(instantUrl), relayed, body(instantModel, stream))
    for (const p of ['p50', 'p90', 'p99'] as const) rows.push([`${name} latency ${p}`, ms(d[p]), ms(r[p]), `+${ms(r[p] - d[p])}`, '', ...databaseCell('')])
    const instantRelayed = await throughput(relayed, body(instantModel, stream), { pids, databasePids })
    throughputRow(`${name} throughput, instant provider`, await throughput([target(instantUrl)], body(instantModel, stream)), instantRelayed)
    const piped = await throughput([target(pipe.url)], body(instantModel, stream), { pids: [pipe.pid] })
    if (instantRelayed.cpuMs !== null && piped.cpuMs !== null) {
      floorRows.push([`${name}, instant provider`, ms(instantRelayed.cpuMs), ms(piped.cpuMs), `${(instantRelayed.cpuMs / piped.cpuMs).toFixed(1)}×`])
    }
    throughputRow(`${name} throughput, provider thinking ${thinkingMs} ms`, await throughput([target(thinkingUrl)], body(thinkingModel, stream)), await throughput(relayed, body(thinkingModel, stream), { pids, databasePids }))
  }
  if (database.kind === 'postgres') {
    // Two workers sharing the port (relay/workers.ts), as production runs on PostgreSQL, against many clients.
    const twoWorkers = await startChild(['relay/main.ts'], relayEnv(await unusedPort(), { WORKERS: '2' }), 2)
    const inFlight = 64
    const spread = keys.map((key) => target(twoWorkers.url, { 'x-api-key': key }))
    // A window uncounted first: its workers' code compiled and their connections opened.
    await throughput(spread, body(thinkingModel, true), { inFlight })
    throughputRow(
      `WORKERS=2, ${inFlight} in flight, streaming, provider thinking ${thinkingMs} ms`,
      await throughput([target(thinkingUrl)], body(thinkingModel, true), { inFlight }),
      await throughput(spread, body(thinkingModel, true), { inFlight, pids: [twoWorkers.pid], databasePids }),
    )
    await twoWorkers.stop()
  }
  // Codex's API beside /v1/messages: the same hop, its stream metered from response.completed.
  const responsesTarget = (base: string, headers: Record<string, string> = {}): Target => ({ url: new URL('/v1/responses', base), headers })
  const responsesBody = JSON.stringify({ model: instantModel, max_output_tokens: 256, stream: true, input: 'Hello' })
  const [dr, rr] = await latency(
    responsesTarget(instantUrl),
    relays.map((relay) => responsesTarget(relay.url, { authorization: `Bearer ${keys[0]!}` })),
    responsesBody,
  )
  for (const p of ['p50', 'p90', 'p99'] as const) rows.push([`Responses streaming latency ${p}`, ms(dr[p]), ms(rr[p]), `+${ms(rr[p] - dr[p])}`, '', ...databaseCell('')])
  // One account's lock against 64 accounts' (non-streaming, instant provider: the relay is the whole cost).
  const userRows: string[][] = []
  for (const inFlight of [8, 32]) {
    const one = await throughput(relayed, body(instantModel, false), { inFlight })
    const many = await throughput(everyUser, body(instantModel, false), { inFlight })
    userRows.push([`${inFlight} in flight, instant provider`, `${one.perSecond.toFixed(0)} calls/s`, `${many.perSecond.toFixed(0)} calls/s`, `${(one.perSecond / many.perSecond).toFixed(2)}`])
  }
  // Metrics off and on: the same calls, one at a time to each in turn, then a throughput window
  // each, while the measured relay is scraped every second (far more often than Prometheus would).
  const withMetrics = [target(measured.url, { 'x-api-key': keys[0]! })]
  const scraping = setInterval(() => void fetch(new URL('/metrics', measured.url), { headers: { authorization: `Bearer ${metricsToken}` } }).then((r) => r.arrayBuffer()), 1000)
  // A window uncounted first: the measured relay is a fresh process, the other has served every row above.
  await throughput(withMetrics, body(instantModel, false))
  const [off, on] = await latency(relayed[0]!, withMetrics, body(instantModel, false))
  // Windows in turn, twice each, so a drift of the machine's load weighs on both sides alike.
  const windows: { off: Awaited<ReturnType<typeof throughput>>[]; on: Awaited<ReturnType<typeof throughput>>[] } = { off: [], on: [] }
  for (let round = 0; round < 2; round++) {
    windows.off.push(await throughput(relayed, body(instantModel, false), { pids }))
    windows.on.push(await throughput(withMetrics, body(instantModel, false), { pids: [measured.pid] }))
  }
  clearInterval(scraping)
  const [offRate, onRate] = [meanWindow(windows.off), meanWindow(windows.on)]
  const metricsRows = [
    ['non-streaming latency p50', ms(off.p50), ms(on.p50), `+${ms(on.p50 - off.p50)}`],
    ['non-streaming throughput, instant provider', `${offRate.perSecond.toFixed(0)} calls/s`, `${onRate.perSecond.toFixed(0)} calls/s`, `${((onRate.perSecond / offRate.perSecond) * 100).toFixed(0)} %`],
    ...(offRate.cpuMs !== null && onRate.cpuMs !== null ? [['relay CPU per call', ms(offRate.cpuMs), ms(onRate.cpuMs), `+${ms(onRate.cpuMs - offRate.cpuMs)}`]] : []),
  ]
  printTable(header, rows)
  console.log('\nCPU per call against the floor: a plain pipe (bench/pipe-proxy.ts, an HTTP hop and nothing else) under the same load.')
  printTable(['', 'relay', 'plain pipe', 'relay ÷ pipe'], floorRows)
  console.log('\nMetrics (METRICS_TOKEN) off and on: the same relay, scraped every second when on.')
  printTable(['', 'metrics off', 'metrics on', 'on against off'], metricsRows)
  console.log('\nOne user against many: the same calls through the relay, from one user or spread over 64.')
  printTable(['', 'one user', `${userCount} users`, 'one / many'], userRows)
  const [load2] = loadavg()
  console.log(`\nLoad average at the end: ${load2!.toFixed(1)}.`)
  console.log('Targets (docs/architecture.md §10): under 1 ms added at the median; at least 80 % of direct throughput.')
  console.log('An instant provider makes the relay the whole cost (an HTTP hop and a ledger transaction per call');
  console.log('against a fake that does nothing): that row is the relay\'s capacity, its CPU per call the cost.')
  agent.destroy()
  await Promise.all([...relays, measured, pipe].map((child) => child.stop()))
  await checkLedger(database)
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)))
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   '))
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
