/**
 * `npm run bench:streams`: many long streams at once through one relay process. STREAMS streams
 * of SECONDS seconds, the provider sending a text delta every EVENT_MS ms, first straight to a
 * loopback fake provider, then the same load through the relay — served as in production
 * (`relay/main.ts`: @hono/node-server, one process, `WORKERS=1`) on a temporary SQLite file or,
 * with DB=postgres, a temporary schema of TEST_DATABASE_URL; each call authenticated by one of 64
 * API keys, priced as a variable-cost model, metered, settled and recorded. The streams are opened
 * evenly over RAMP_MS (default 2000). Prints, asserting nothing:
 * - completions: streams that ended with the provider's `message_stop`, direct and relayed;
 * - resident memory per open stream: the relay's RSS at its plateau (the highest sample while
 *   every stream is open) less its RSS at rest after a warm-up, divided by the streams;
 * - the relay's CPU (user + system) per 1,000 events relayed, beside a plain pipe's under the same
 *   load (bench/pipe-proxy.ts: each event read once and written once, nothing else);
 * - the gaps between a stream's consecutive events as the client saw them, p50 and p99, direct
 *   and relayed;
 * - the relay's event-loop delay p99 over the relayed run (`nodejs_eventloop_lag_p99_seconds`
 *   of its /metrics, read at the start and the end: a read resets it), with its p50 beside it —
 *   Node samples it every 10 ms, so an idle loop reads about 10 ms.
 * Ends by checking the ledger's invariants over every call the run wrote.
 *
 * Each relayed stream holds two sockets in the relay (the client's and the provider's): Node
 * raises its soft limit of open files to the hard one, and the run says so when STREAMS cannot
 * fit under it (`ulimit -Hn`). With PROVIDER_HTTP2=true the provider speaks TLS and HTTP/2, as
 * the real ones do, and the relay (`PROVIDER_HTTP2`) and the pipe carry up to 100 streams on
 * each of their connections to it: a stream then holds one socket in them. BENCH_PORT (default: any free ports) puts the provider, the warm-up
 * provider, the relay and the pipe on that port and the next three. BENCH_HEAP_SNAPSHOT=<dir> writes a heap
 * snapshot of the relay at its plateau there (SIGUSR2, `--heapsnapshot-signal`);
 * BENCH_PROFILE_DIR=<dir> a V8 CPU profile of the relay's whole run.
 */
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { createTestDatabase } from '../tests/fixtures/databases.ts'
import { unusedPort } from '../tests/fixtures/ports.ts'
import { loopbackCertificate } from '../tests/fixtures/tls.ts'
import { checkLedger, cpuTimeMs, jwtSecret, prepare, startChild, type Child } from './relay-fixtures.ts'

const streams = Number(process.env.STREAMS ?? 1000)
const seconds = Number(process.env.SECONDS ?? 30)
const eventMs = Number(process.env.EVENT_MS ?? 100)
const rampMs = Number(process.env.RAMP_MS ?? 2000)
const kind = process.env.DB === 'postgres' ? 'postgres' : 'sqlite'
const basePort = Number(process.env.BENCH_PORT ?? 0)
const heapSnapshotDir = process.env.BENCH_HEAP_SNAPSHOT
const profileDir = process.env.BENCH_PROFILE_DIR
const events = Math.max(1, Math.round((seconds * 1000) / eventMs))
const model = 'bench-stream-model'
const warmModel = 'bench-warm-up-model'
const metricsToken = 'bench-metrics-token-0123456789'
const users = 64
const http2 = process.env.PROVIDER_HTTP2 === 'true'
const certificate = http2 ? loopbackCertificate() : undefined

const port = async (offset: number) => (basePort ? basePort + offset : unusedPort())
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity })
/** The direct run's client, to the provider over TLS (HTTP/1.1, a connection per stream, as the relay's clients). */
const tlsAgent = new https.Agent({ keepAlive: false, maxSockets: Infinity, ca: certificate?.cert })

interface StreamResult {
  completed: boolean
  /** Why it did not complete: an HTTP status, a socket error's code, or `cut` (ended without message_stop). */
  failure?: string
  /** Milliseconds between consecutive text deltas as they arrived. */
  gaps: number[]
}

/** One stream read to its end, each text delta's arrival noted. */
function stream(url: URL, headers: Record<string, string>, body: string): Promise<StreamResult> {
  return new Promise((resolve) => {
    const gaps: number[] = []
    let last = 0
    let tail = ''
    const tls = url.protocol === 'https:'
    const req = (tls ? https : http).request(url, { method: 'POST', agent: tls ? tlsAgent : agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.setEncoding('utf8')
      res.on('data', (text: string) => {
        const now = performance.now()
        // Forwarded unchanged, so each delta names itself once on its `event:` line.
        const seen = (tail + text).split('event: content_block_delta').length - 1
        for (let i = 0; i < seen; i++) {
          if (last) gaps.push(now - last)
          last = now
        }
        tail = (tail + text).slice(-64)
      })
      res.on('end', () => {
        const completed = res.statusCode === 200 && tail.includes('message_stop')
        resolve({ completed, gaps, failure: completed ? undefined : res.statusCode === 200 ? 'cut' : `status ${res.statusCode}` })
      })
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ completed: false, gaps, failure: error.code ?? error.message }))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ completed: false, gaps, failure: error.code ?? error.message }))
    req.end(body)
  })
}

/** `streams` streams opened evenly over `rampMs`; `during` runs once every one is open. */
async function load(url: URL, headersOf: (i: number) => Record<string, string>, during: () => Promise<void> = async () => {}): Promise<StreamResult[]> {
  const body = JSON.stringify({ model, max_tokens: 4096, stream: true, messages: [{ role: 'user', content: 'Tell me a long story.' }] })
  const started = performance.now()
  const running: Promise<StreamResult>[] = []
  for (let i = 0; i < streams; i++) {
    const due = started + (i * rampMs) / streams
    if (due > performance.now()) await sleep(due - performance.now())
    running.push(stream(url, headersOf(i), body))
  }
  await during()
  return Promise.all(running)
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

function gapPercentiles(results: readonly StreamResult[]): { p50: number; p99: number } {
  const gaps = Float64Array.from(results.flatMap((r) => r.gaps)).sort()
  return { p50: percentile(gaps as unknown as number[], 50), p99: percentile(gaps as unknown as number[], 99) }
}

/** Resident memory of a process, in bytes (Linux /proc). */
function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
  return Number(line?.[1] ?? 0) * 1024
}

/** The hard limit of open files a child of this process gets (Node raises its soft limit to it). */
function openFilesLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8').match(/^Max open files\s+\S+\s+(\S+)/m)
  return line?.[1] === 'unlimited' ? Infinity : Number(line?.[1] ?? 0)
}

/** The relay's event-loop delay since the last read, in ms (a read resets it: prom-client). */
async function eventLoopDelay(relay: Child): Promise<{ p50: number; p99: number }> {
  const text = await (await fetch(new URL('/metrics', relay.url), { headers: { authorization: `Bearer ${metricsToken}` } })).text()
  const figure = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)`, 'm'))?.[1]) * 1000
  return { p50: figure('nodejs_eventloop_lag_p50_seconds'), p99: figure('nodejs_eventloop_lag_p99_seconds') }
}

async function main(): Promise<void> {
  const limit = openFilesLimit()
  const files = (http2 ? streams * 1.01 : streams * 2) + 64
  if (files > limit) {
    console.warn(`Warning: ${streams} relayed streams need about ${files} open files in the relay; the hard limit here is ${limit} (ulimit -Hn). Raise it, or expect refused connections.`)
  }
  const tlsArgs = certificate ? ['--tls-key', certificate.keyPath, '--tls-cert', certificate.certPath] : []
  // The relay and the pipe trust the provider's certificate as Node lets any process.
  const trust = certificate ? { NODE_EXTRA_CA_CERTS: certificate.certPath } : {}
  const [provider, warmProvider] = await Promise.all([
    startChild(['tests/fixtures/fake-provider.ts', '--port', String(await port(0)), '--paced-ms', String(eventMs), '--paced-events', String(events), ...tlsArgs], {}),
    startChild(['tests/fixtures/fake-provider.ts', '--port', String(await port(1)), ...tlsArgs], {}),
  ])
  const database = await createTestDatabase(kind)
  try {
    const keys = await prepare(database, [[model, provider.url], [warmModel, warmProvider.url]], users)
    const relay = await startChild(
      [
        ...(heapSnapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapSnapshotDir}`] : []),
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        'relay/main.ts',
      ],
      {
        NODE_ENV: 'production',
        PORT: String(await port(2)),
        DATABASE_URL: database.url,
        ...(database.searchPath ? { DATABASE_SCHEMA: database.searchPath } : {}),
        JWT_SECRET: jwtSecret,
        LOG_LEVEL: 'error',
        WORKERS: '1',
        METRICS_TOKEN: metricsToken,
        MAX_STREAMS_PER_PROCESS: String(streams + 1000),
        PROVIDER_HTTP2: String(http2),
        ...trust,
      },
    )
    const headersOf = (i: number) => ({ 'anthropic-version': '2023-06-01', 'x-api-key': keys[i % keys.length]! })
    // Warm-up: every code path run (and compiled) and the pools filled, then the relay at rest.
    const warmBody = JSON.stringify({ model: warmModel, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] })
    for (let round = 0; round < 10; round++) await Promise.all(Array.from({ length: 50 }, (_, i) => stream(new URL('/v1/messages', relay.url), headersOf(i), warmBody)))
    await sleep(1000)
    const idleRss = rssBytes(relay.pid)

    const [load1] = loadavg()
    console.log(`Streams benchmark: loopback, ${cpus().length} CPUs (load average ${load1!.toFixed(1)} at start), ${kind === 'postgres' ? 'PostgreSQL (a temporary schema)' : 'SQLite (a temporary file)'}, Node ${process.version}`)
    console.log(`${streams} streams of ${seconds} s, a text delta every ${eventMs} ms (${events} each), opened over ${rampMs} ms; first direct, then through one relay process, then through a plain pipe; to the provider ${http2 ? 'over TLS, HTTP/2 from the relay and the pipe' : 'over HTTP/1.1'}.\n`)

    const direct = await load(new URL('/v1/messages', provider.url), () => ({ 'anthropic-version': '2023-06-01' }))

    await eventLoopDelay(relay)
    const cpuBefore = cpuTimeMs([relay.pid])!
    let plateau = 0
    const relayed = await load(new URL('/v1/messages', relay.url), headersOf, async () => {
      // Every stream is open until the first one ends, SECONDS after it began, less the ramp.
      const until = performance.now() + Math.max(1000, seconds * 1000 - rampMs - 500)
      let snapshot = heapSnapshotDir !== undefined
      while (performance.now() < until) {
        plateau = Math.max(plateau, rssBytes(relay.pid))
        if (snapshot && performance.now() > until - (seconds * 1000) / 2) {
          process.kill(relay.pid, 'SIGUSR2')
          snapshot = false
        }
        await sleep(250)
      }
    })
    const cpuMs = cpuTimeMs([relay.pid])! - cpuBefore
    const loop = await eventLoopDelay(relay)

    // The same load through a hop that only reads and writes each event once: the CPU floor.
    const pipe = await startChild(['bench/pipe-proxy.ts', provider.url, String(await port(3))], trust)
    const pipeCpuBefore = cpuTimeMs([pipe.pid])!
    const piped = await load(new URL('/v1/messages', pipe.url), () => ({ 'anthropic-version': '2023-06-01' }))
    const pipeCpuMs = cpuTimeMs([pipe.pid])! - pipeCpuBefore
    await pipe.stop()

    const completed = (results: StreamResult[]) => {
      const failures = new Map<string, number>()
      for (const { failure } of results) if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1)
      const why = [...failures].map(([failure, n]) => `${n} ${failure}`).join(', ')
      return `${results.filter((r) => r.completed).length} / ${streams}${why ? ` (${why})` : ''}`
    }
    const eventsOf = (results: StreamResult[]) => results.reduce((sum, r) => sum + r.gaps.length + (r.gaps.length > 0 || r.completed ? 1 : 0), 0)
    const [eventsRelayed, eventsPiped] = [eventsOf(relayed), eventsOf(piped)]
    const [d, r, p] = [gapPercentiles(direct), gapPercentiles(relayed), gapPercentiles(piped)]
    const ms = (n: number) => `${n.toFixed(1)} ms`
    const [relayCpu, pipeCpu] = [(cpuMs / eventsRelayed) * 1000, (pipeCpuMs / eventsPiped) * 1000]
    const header = ['', 'direct', 'via relay', 'via a plain pipe']
    const rows = [
      ['completed streams', completed(direct), completed(relayed), completed(piped)],
      ['event gap p50', ms(d.p50), ms(r.p50), ms(p.p50)],
      ['event gap p99', ms(d.p99), ms(r.p99), ms(p.p99)],
      ['relay RSS at rest → plateau', '', `${(idleRss / 2 ** 20).toFixed(0)} → ${(plateau / 2 ** 20).toFixed(0)} MiB`, ''],
      ['relay RSS per open stream', '', `${((plateau - idleRss) / streams / 1024).toFixed(1)} KiB`, ''],
      ['CPU per 1,000 events', '', `${relayCpu.toFixed(0)} ms (${eventsRelayed} events)`, `${pipeCpu.toFixed(0)} ms (${eventsPiped} events)`],
      ['relay CPU ÷ plain pipe CPU', '', `${(relayCpu / pipeCpu).toFixed(2)}×`, ''],
      ['relay event-loop delay p50 / p99', '', `${ms(loop.p50)} / ${ms(loop.p99)}`, ''],
    ]
    const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)))
    for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   '))
    const [load2] = loadavg()
    console.log(`\nLoad average at the end: ${load2!.toFixed(1)}.`)
    if (heapSnapshotDir) console.log(`Heap snapshot: ${readdirSync(heapSnapshotDir).filter((f) => f.endsWith('.heapsnapshot')).join(', ')} in ${heapSnapshotDir}`)
    agent.destroy()
    tlsAgent.destroy()
    await relay.stop()
    await Promise.all([provider.stop(), warmProvider.stop()])
    await checkLedger(database)
  } finally {
    await database.dispose()
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
