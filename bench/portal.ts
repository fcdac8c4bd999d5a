/**
 * `npm run bench:portal`: what a visitor on a slow network pays, and how long the server takes.
 * - First-load JavaScript and CSS of each public page (brotli bytes, as served).
 * - Server time per page (p50/p95 over bounded runs), in-process against the embedded relay on a
 *   temporary SQLite file, including a signed-in dashboard whose loaders fan out to the relay.
 * Needs a build (`npm run build`). Prints a table; asserts nothing.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

const dataDir = mkdtempSync(join(tmpdir(), 'bench-portal-'))
Object.assign(process.env, {
  NODE_ENV: 'production',
  DATABASE_URL: join(dataDir, 'relay.sqlite'),
  SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789abcdef',
  LOG_LEVEL: 'error',
  PUBLIC_URL: 'http://portal.test',
})

const { prepareEnvironment } = await import('../server/env.ts')
const { startEmbeddedRelay } = await import('../server/embedded-relay.ts')
const { loadPortal, Visitor } = await import('../tests/integration/portal-harness.ts')
const relay = await startEmbeddedRelay(prepareEnvironment(dataDir).relay!)
const handle = await loadPortal({})
const clientDir = join(process.env.BUILD_DIR ?? 'build', 'client')

function brotliSize(asset: string): number {
  const path = join(clientDir, asset)
  try {
    return statSync(`${path}.br`).size
  } catch {
    return readFileSync(path).length // under 512 bytes: served as is
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function timePage(visitor: InstanceType<typeof Visitor>, path: string, runs: number) {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    const response = await visitor.get(path)
    await response.text()
    samples.push(performance.now() - start)
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
  }
  return samples.sort((a, b) => a - b)
}

// A signed-in visitor for the dashboard.
const username = 'benchuser'
const password = 'bench password 1'
const { execFileSync } = await import('node:child_process')
execFileSync(process.execPath, ['--import', 'tsx', 'relay/cli.ts', 'user', 'create', '--username', username, '--email', 'bench@example.com', '--password', password], {
  env: process.env,
  stdio: 'ignore',
})
const member = new Visitor(handle)
const login = await member.submit('/auth/login', { username, password })
if (login.status !== 302) throw new Error(`login failed: ${login.status}`)
const guest = new Visitor(handle)

const pages: Array<[string, InstanceType<typeof Visitor>]> = [
  ['/', guest],
  ['/auth/login', guest],
  ['/auth/register', guest],
  ['/privacy', guest],
  ['/dashboard', member],
]
const runs = 150
console.log(`portal benchmark: ${runs} sequential renders per page, in-process, embedded relay on SQLite\n`)
console.log('page'.padEnd(18), 'JS br KiB'.padStart(10), 'CSS br KiB'.padStart(11), 'HTML KiB'.padStart(9), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8))
for (const [path, visitor] of pages) {
  const html = await (await visitor.get(path)).text()
  const scripts = new Set([...html.matchAll(/(?:modulepreload" href|import\()"?(\/assets\/[^"')]+\.js)/g)].map((m) => m[1]!))
  for (const m of html.matchAll(/href="(\/assets\/[^"]+\.js)"/g)) scripts.add(m[1]!)
  const styles = new Set([...html.matchAll(/href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]!))
  const js = [...scripts].reduce((sum, s) => sum + brotliSize(s), 0)
  const css = [...styles].reduce((sum, s) => sum + brotliSize(s), 0)
  for (let i = 0; i < 10; i++) await (await visitor.get(path)).text() // warm up
  const samples = await timePage(visitor, path, runs)
  console.log(
    path.padEnd(18),
    (js / 1024).toFixed(1).padStart(10),
    (css / 1024).toFixed(1).padStart(11),
    (Buffer.byteLength(html) / 1024).toFixed(1).padStart(9),
    percentile(samples, 50).toFixed(2).padStart(8),
    percentile(samples, 95).toFixed(2).padStart(8),
  )
}
console.log('\nJS/CSS: brotli bytes of the scripts and styles the page loads first (chart.js is a lazy chunk, not counted).')

await relay.close()
rmSync(dataDir, { recursive: true, force: true })
