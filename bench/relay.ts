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
 * TEST_DATABASE_URL's database instead of a temporary SQLite file), BENCH_STATUS_LINE=only (just the
 * status-line row of bench/relay-status-line.ts, which runs on the seeded database of bench/seed-history.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { relayConfigSchema } from '../relay/config.ts'
import { createApiKey } from '../relay/keys/service.ts'
import { createLogger } from '../relay/logger.ts'
import { setModelCost } from '../relay/points/model-costs.ts'
import { ProviderKeyBox } from '../relay/proxy/provider-keys.ts'
import { addProvider } from '../relay/proxy/providers.ts'
import { openRuntime } from '../relay/runtime.ts'
import { createServices } from '../relay/services.ts'
import { createPackage } from '../relay/subscriptions/packages.ts'
import { createRedeemCodes, redeemCode } from '../relay/subscriptions/redeem-codes.ts'
import { insertUser } from '../relay/users/users.ts'
import { createTestDatabase, type TestDatabase } from '../tests/fixtures/databases.ts'
import { unusedPort } from '../tests/fixtures/ports.ts'
import { statusLineRows } from './relay-status-line.ts'

const calls = Number(process.env.BENCH_CALLS ?? 2000)
const seconds = Number(process.env.BENCH_SECONDS ?? 4)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8)
const thinkingMs = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 20)
const instantModel = 'bench-model'
const thinkingModel = 'bench-thinking-model'
const warmup = 1000

const jwtSecret = 'bench-jwt-secret-0123456789abcdef0123456789abcdef'
const children: ChildProcess[] = []

process.on('exit', () => {
  for (const child of children) child.kill()
})

/** Starts a child process and resolves with the first URL it prints. */
function startChild(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = line.match(/https?:\/\/\S+/)?.[0]
      if (url) resolve({ url: url.replace('localhost', '127.0.0.1'), pid: child.pid! })
    })
  })
}

/** A user with a large package, an API key, a priced model and the provider, as an operator sets them up. */
async function prepare(database: TestDatabase, instantUrl: string, thinkingUrl: string): Promise<string> {
  const config = relayConfigSchema.parse({ databaseUrl: database.url, databaseSchema: database.searchPath, jwtSecrets: [jwtSecret], logLevel: 'error' })
  const runtime = await openRuntime(config, { logger: createLogger('error') })
  const services = createServices(runtime.deps)
  const { db, clock } = services
  const now = clock.now()
  try {
    const user = await insertUser(db, now, { username: 'bench', email: 'bench@example.com', passwordHash: 'unused' })
    await createPackage(db, now, { code: 'BENCH', name: 'bench', kind: 'personal', points_limit: 100_000_000, hour_points: 0, validity_days: 3650 })
    const { codes } = await createRedeemCodes(db, now, { packageCode: 'BENCH', count: 1 })
    await redeemCode(services, { userId: user.id, clientIp: '127.0.0.1' }, codes[0]!.replaceAll('-', ''))
    const box = new ProviderKeyBox([jwtSecret])
    for (const [model, baseUrl] of [[instantModel, instantUrl], [thinkingModel, thinkingUrl]] as const) {
      await setModelCost(db, now, { model, kind: 'variable', input_points_per_mtok: 300, output_points_per_mtok: 1500 })
      await addProvider(db, box, now, { kind: 'anthropic', baseUrl, key: 'bench-provider-key-0000', models: [model] })
    }
    return (await createApiKey(db, clock, user.id, 'bench')).key
  } finally {
    await runtime.close()
  }
}

interface Target {
  url: URL
  headers: Record<string, string>
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })

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
async function latency(direct: Target, relayed: Target, body: string): Promise<[Percentiles, Percentiles]> {
  for (let i = 0; i < warmup; i++) await Promise.all([call(direct, body), call(relayed, body)])
  const samples: [number[], number[]] = [[], []]
  const deadline = performance.now() + 60_000
  while (samples[0].length < calls && performance.now() < deadline) {
    samples[0].push(await call(direct, body))
    samples[1].push(await call(relayed, body))
  }
  return [percentiles(samples[0]), percentiles(samples[1])]
}

function percentiles(samples: number[]): Percentiles {
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99) }
}

/** Calls per second with `concurrency` in flight; and the relay's CPU time per call when `pid` is given. */
async function throughput(target: Target, body: string, pid?: number): Promise<{ perSecond: number; cpuMs: number | null }> {
  const cpuBefore = pid ? cpuTimeMs(pid) : null
  let done = 0
  const end = performance.now() + seconds * 1000
  const start = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call(target, body)
        done += 1
      }
    }),
  )
  const elapsed = (performance.now() - start) / 1000
  const cpuAfter = pid ? cpuTimeMs(pid) : null
  return { perSecond: done / elapsed, cpuMs: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / done : null }
}

/** User + system CPU time of a process (Linux /proc), in ms. */
function cpuTimeMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return null
  }
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
  await statusLine(kind, thinking.url)
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
  const key = await prepare(database, instantUrl, thinkingUrl)
  const port = await unusedPort()
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []
  const relay = await startChild([...profile, 'relay/main.ts'], {
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: database.url,
    ...(database.searchPath ? { DATABASE_SCHEMA: database.searchPath } : {}),
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'error',
  })
  const target = (base: string, headers: Record<string, string> = {}): Target => ({
    url: new URL('/v1/messages', base),
    headers: { 'anthropic-version': '2023-06-01', ...headers },
  })
  const relayed = target(relay.url, { 'x-api-key': key })

  const store = database.kind === 'postgres' ? 'PostgreSQL (a temporary schema)' : 'SQLite (a temporary file)'
  console.log(`Relay benchmark: loopback, ${cpus().length} CPUs, ${store}, Node ${process.version}`)
  console.log(`Latency: ${calls} calls one at a time, direct and relayed in turn, to a fake provider that answers at once.`)
  console.log(`Throughput: ${concurrency} calls in flight for ${seconds} s, to that provider and to one that thinks ${thinkingMs} ms first.\n`)
  const header = ['', 'direct', 'via relay', 'relay adds']
  const rows: string[][] = []
  const throughputRow = (name: string, d: { perSecond: number }, r: { perSecond: number }) =>
    rows.push([name, `${d.perSecond.toFixed(0)} calls/s`, `${r.perSecond.toFixed(0)} calls/s`, `${((r.perSecond / d.perSecond) * 100).toFixed(0)} % of direct`])
  for (const stream of [false, true]) {
    const body = (model: string) => JSON.stringify({ model, max_tokens: 256, stream, messages: [{ role: 'user', content: 'Hello' }] })
    const name = stream ? 'streaming' : 'non-streaming'
    const [d, r] = await latency(target(instantUrl), relayed, body(instantModel))
    for (const p of ['p50', 'p90', 'p99'] as const) rows.push([`${name} latency ${p}`, ms(d[p]), ms(r[p]), `+${ms(r[p] - d[p])}`])
    const [dt, rt] = [await throughput(target(instantUrl), body(instantModel)), await throughput(relayed, body(instantModel), relay.pid)]
    throughputRow(`${name} throughput, instant provider`, dt, rt)
    if (rt.cpuMs !== null) rows.push([`${name} relay CPU per call`, '', ms(rt.cpuMs), ''])
    throughputRow(`${name} throughput, provider thinking ${thinkingMs} ms`, await throughput(target(thinkingUrl), body(thinkingModel)), await throughput(relayed, body(thinkingModel)))
  }
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)))
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   '))
  console.log('\nTargets (docs/architecture.md §10): under 1 ms added at the median; at least 80 % of direct throughput.')
  console.log('An instant provider makes the relay the whole cost (an HTTP hop and a ledger transaction per call');
  console.log('against a fake that does nothing): that row is the relay\'s capacity, its CPU per call the cost.')
  agent.destroy()
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
