/**
 * The second half of `npm run bench:portal`: does a page stay as fast when an account has a long
 * history? On the database of bench/seed-history.ts (one account with BENCH_HEAVY_CALLS relayed
 * calls, 1M by default; one with 100; 100k users and 100k redeem codes), in-process against the
 * embedded relay as in production:
 * - each signed-in page's server time (median of BENCH_RUNS renders) for both accounts, and the
 *   ratio (the target: at most 1.5×, docs/decisions/111-bounded-history-reads.md);
 * - deeper and deeper pages of the heavy account's points history, and its usage log filtered by
 *   outcomes it rarely has;
 * - the usage log's CSV export of the heavy account: rows per second and the process's peak
 *   memory above what it held before;
 * - Home for a visitor, and the operator console (overview, a user search, the code list);
 * - the console's call log (/admin/calls) filtered by user, model, outcome and request id, for the
 *   heavy account and the light one side by side.
 * `BENCH_DATABASE=postgres` seeds (once) and reads a schema in TEST_DATABASE_URL's database.
 * Needs a build (`npm run build`). Prints a table; asserts nothing.
 */
import { performance } from 'node:perf_hooks'
import type { Visitor } from '../tests/integration/portal-harness.ts'
import { startInProcessPortal } from './in-process-portal.ts'
import { defaultShape, seededDatabase } from './seed-history.ts'

const kind = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
const runs = Number(process.env.BENCH_RUNS ?? 15)
const seeded = await seededDatabase(kind)
const portal = await startInProcessPortal('bench-history', () => ({ DATABASE_URL: seeded.url, ...(seeded.searchPath ? { DATABASE_SCHEMA: seeded.searchPath } : {}) }))

/** Median server time of `path` over `runs` renders, after two to warm up. */
async function medianMs(visitor: Visitor, path: string): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < runs + 2; i++) {
    const start = performance.now()
    const response = await visitor.get(path)
    await response.text()
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
    if (i >= 2) samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]!
}

const ms = (n: number) => `${n.toFixed(1)} ms`

/** Each signed-in page for the heavy and the light account, side by side. */
async function pagesByHistory(heavy: Visitor, light: Visitor): Promise<void> {
  const pages = ['/dashboard', '/points', '/subscription', '/usage', '/api-keys', '/referral', '/tickets', '/profile']
  console.log(`${'page'.padEnd(14)} ${`${defaultShape.heavyCalls} calls`.padStart(12)} ${'100 calls'.padStart(12)} ${'ratio'.padStart(7)}`)
  for (const path of pages) {
    const [h, l] = [await medianMs(heavy, path), await medianMs(light, path)]
    console.log(`${path.padEnd(14)} ${ms(h).padStart(12)} ${ms(l).padStart(12)} ${`${(h / l).toFixed(2)}×`.padStart(7)}`)
  }
}

/** The heavy account's whole usage log as CSV: rows per second, and the peak memory the export added. */
async function csvExport(heavy: Visitor): Promise<void> {
  global.gc?.()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
  const start = performance.now()
  const response = await heavy.get('/usage/export')
  let rows = 0
  const decoder = new TextDecoder()
  const reader = response.body!.getReader()
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rows += decoder.decode(chunk.value, { stream: true }).split('\n').length - 1
  const seconds = (performance.now() - start) / 1000
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  console.log(`/usage/export  ${rows - 1} rows in ${seconds.toFixed(1)} s: ${Math.round((rows - 1) / seconds)} rows/s, peak memory +${((peak - before) / 2 ** 20).toFixed(0)} MiB (RSS ${(peak / 2 ** 20).toFixed(0)} MiB)`)
}

/**
 * Deeper and deeper pages of the heavy account's points history, each starting at its own day
 * (docs/decisions/111-bounded-history-reads.md), and its usage log filtered by outcomes it rarely has (docs/decisions/111-bounded-history-reads.md).
 */
async function deepAndRareReads(heavy: Visitor): Promise<void> {
  const paths = [...[2, 1_000, 20_000, 45_000].map((page) => `/points?page=${page}`), '/usage?outcome=failed', '/usage?outcome=abandoned']
  for (const path of paths) console.log(`${path.padEnd(26)} ${ms(await medianMs(heavy, path))}`)
}

/** Pages whose reads do not belong to one account: Home (background aggregates) and the operator console. */
async function sharedPages(guest: Visitor, admin: Visitor): Promise<void> {
  console.log(`/ (Home, visitor)          ${ms(await medianMs(guest, '/'))}`)
  // The console's start page may send to one of its screens: the screen is timed.
  const overview = await admin.get('/admin')
  const start = overview.status === 302 ? new URL(overview.headers.get('location')!, 'http://portal.test').pathname : '/admin'
  for (const path of [start, '/admin/users?q=user0500', '/admin/users?q=example.com', '/admin/codes']) console.log(`${path.padEnd(26)} ${ms(await medianMs(admin, path))}`)
}

/** The console's call log as an operator searches it, in the heavy account's calls and the light one's. */
async function callLog(admin: Visitor): Promise<void> {
  // A call of each account to find by its request id: the first the log lists for them.
  const firstCall = async (username: string) => {
    const id = (await (await admin.get(`/admin/calls?user=${username}`)).text()).match(/\/admin\/calls\/(\d+)/)?.[1]
    if (!id) throw new Error(`no call listed for ${username}`)
    return id
  }
  const [heavyCall, lightCall] = [await firstCall(seeded.heavy.username), await firstCall(seeded.light.username)]
  const filters = (username: string, call: string) => [`user=${username}`, `user=${username}&model=claude-opus-4-1`, `user=${username}&outcome=failed`, `request=${call}`]
  const [heavyPaths, lightPaths] = [filters(seeded.heavy.username, heavyCall), filters(seeded.light.username, lightCall)]
  // Each page's time with the calls it lists: a page of two rows renders faster than one of fifty.
  const timed = async (path: string) => {
    const median = await medianMs(admin, `/admin/calls?${path}`)
    const listed = new Set((await (await admin.get(`/admin/calls?${path}`)).text()).match(/\/admin\/calls\/\d+/g)).size
    return { median, text: `${ms(median)} (${listed})` }
  }
  console.log(`${'/admin/calls? (calls listed)'.padEnd(36)} ${`${defaultShape.heavyCalls} calls`.padStart(14)} ${'100 calls'.padStart(14)} ${'ratio'.padStart(7)}`)
  for (const [i, heavyPath] of heavyPaths.entries()) {
    const [h, l] = [await timed(heavyPath), await timed(lightPaths[i]!)]
    const filter = heavyPath.replace(seeded.heavy.username, '…').replace(heavyCall, '…')
    console.log(`${filter.padEnd(36)} ${h.text.padStart(14)} ${l.text.padStart(14)} ${`${(h.median / l.median).toFixed(2)}×`.padStart(7)}`)
  }
  // Across every user: along the call log's time index.
  for (const path of ['', 'model=claude-opus-4-1', 'outcome=failed']) console.log(`${(path || '(every call)').padEnd(36)} ${(await timed(path)).text.padStart(14)}`)
}

const store = kind === 'postgres' ? `PostgreSQL (schema ${seeded.searchPath})` : 'SQLite'
console.log(`\nportal with history: ${store}, ${seeded.seededSeconds > 0 ? `seeded in ${seeded.seededSeconds.toFixed(0)} s` : 'seeded database reused'}; median of ${runs} renders, in-process\n`)
const [heavy, light, admin] = [
  await portal.signedIn(seeded.heavy.username, seeded.heavy.password),
  await portal.signedIn(seeded.light.username, seeded.light.password),
  await portal.signedIn(seeded.admin.username, seeded.admin.password),
]
await pagesByHistory(heavy, light)
console.log('')
await deepAndRareReads(heavy)
console.log('')
await csvExport(heavy)
console.log('')
await sharedPages(portal.visitor(), admin)
console.log('')
await callLog(admin)

await portal.close()
