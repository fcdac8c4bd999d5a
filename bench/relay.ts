/**
 * `npm run bench:relay`: what the metered relay adds to a call. Side by side, in one run: calls
 * straight to the fake provider, and the same calls through the relay — served exactly as in
 * production (`relay/main.ts`: @hono/node-server on loopback) on a temporary SQLite file, each
 * call authenticated by an API key, priced as a variable-cost model (estimate frozen, settled from
 * the reported usage) and recorded. Non-streaming and streaming (SSE): latency percentiles one
 * call at a time, then throughput with several calls in flight. By default the provider answers at
 * once, so the relay's own cost is all there is to see. Bounded counts and time; loopback only;
 * prints a table and asserts nothing.
 *
 * Options (environment): BENCH_CALLS (sequential calls per case, default 1500), BENCH_SECONDS
 * (throughput window per case, default 4), BENCH_CONCURRENCY (default 8), BENCH_PROVIDER_LATENCY_MS
 * (the fake provider waits this long before each answer, as a real one thinks; default 0).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
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
import { unusedPort } from '../tests/fixtures/ports.ts'

const calls = Number(process.env.BENCH_CALLS ?? 1500)
const seconds = Number(process.env.BENCH_SECONDS ?? 4)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8)
const providerLatencyMs = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 0)
const warmup = 300

const dataDir = mkdtempSync(join(tmpdir(), 'bench-relay-'))
const jwtSecret = 'bench-jwt-secret-0123456789abcdef0123456789abcdef'
const children: ChildProcess[] = []

function cleanUp(): void {
  for (const child of children) child.kill()
  rmSync(dataDir, { recursive: true, force: true })
}
process.on('exit', cleanUp)

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
async function prepare(databaseUrl: string, providerUrl: string): Promise<string> {
  const config = relayConfigSchema.parse({ databaseUrl, jwtSecrets: [jwtSecret], logLevel: 'error' })
  const runtime = await openRuntime(config, { logger: createLogger('error') })
  const services = createServices(runtime.deps)
  const { db, clock } = services
  const now = clock.now()
  try {
    const user = await insertUser(db, now, { username: 'bench', email: 'bench@example.com', passwordHash: 'unused' })
    await createPackage(db, now, { code: 'BENCH', name: 'bench', kind: 'personal', points_limit: 100_000_000, hour_points: 0, validity_days: 3650 })
    const { codes } = await createRedeemCodes(db, now, { packageCode: 'BENCH', count: 1 })
    await redeemCode(services, user.id, codes[0]!.replaceAll('-', ''))
    await setModelCost(db, now, { model: 'bench-model', kind: 'variable', input_points_per_mtok: 300, output_points_per_mtok: 1500 })
    await addProvider(db, new ProviderKeyBox([jwtSecret]), now, { kind: 'anthropic', baseUrl: providerUrl, key: 'bench-provider-key-0000', models: ['*'] })
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
  const provider = await startChild(['tests/fixtures/fake-provider.ts', '--latency-ms', String(providerLatencyMs)], {})
  const key = await prepare(join(dataDir, 'relay.sqlite'), provider.url)
  const port = await unusedPort()
  const relay = await startChild([...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), 'relay/main.ts'], {
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: join(dataDir, 'relay.sqlite'),
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'error',
  })
  const direct: Target = { url: new URL('/v1/messages', provider.url), headers: { 'anthropic-version': '2023-06-01' } }
  const relayed: Target = { url: new URL('/v1/messages', relay.url), headers: { 'anthropic-version': '2023-06-01', 'x-api-key': key } }

  console.log(`Relay benchmark: loopback, ${cpus().length} CPUs, SQLite (temporary file), Node ${process.version}`)
  console.log(`${calls} sequential calls per case for latency; ${concurrency} in flight for ${seconds} s for throughput`)
  console.log(`The fake provider answers ${providerLatencyMs > 0 ? `after ${providerLatencyMs} ms` : 'at once'}\n`)
  const header = ['', 'direct', 'via relay', 'relay adds']
  const rows: string[][] = []
  for (const stream of [false, true]) {
    const body = JSON.stringify({ model: 'bench-model', max_tokens: 256, stream, messages: [{ role: 'user', content: 'Hello' }] })
    const name = stream ? 'streaming' : 'non-streaming'
    const [d, r] = await latency(direct, relayed, body)
    for (const p of ['p50', 'p90', 'p99'] as const) rows.push([`${name} latency ${p}`, ms(d[p]), ms(r[p]), `+${ms(r[p] - d[p])}`])
    const [dt, rt] = [await throughput(direct, body), await throughput(relayed, body, relay.pid)]
    rows.push([`${name} throughput`, `${dt.perSecond.toFixed(0)} calls/s`, `${rt.perSecond.toFixed(0)} calls/s`, `${((rt.perSecond / dt.perSecond) * 100).toFixed(0)} % of direct`])
    if (rt.cpuMs !== null) rows.push([`${name} relay CPU per call`, '', ms(rt.cpuMs), ''])
  }
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)))
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   '))
  console.log('\nTargets (DESIGN §10, issue 6): under 1 ms added at the median; at least 80 % of direct throughput.')
  agent.destroy()
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
