/**
 * `npm run bench:portal`: what a visitor on a slow network pays, and how long the server takes.
 * - First-load JavaScript of each public page: the scripts it fetches before any interaction
 *   (brotli bytes, as served, and requests), and its CSS (inlined in the HTML since
 *   docs/decisions/030-first-paint-and-charts.md, so counted in the HTML's size).
 * - Server time per page (p50/p95 over bounded runs), in-process against the embedded relay on a
 *   temporary SQLite file, including a signed-in dashboard whose loaders fan out to the relay.
 * Needs a build (`npm run build`). Prints a table; asserts nothing.
 */
import { readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync } from 'node:zlib'
import type { Visitor } from '../tests/integration/portal-harness.ts'
import { startInProcessPortal } from './in-process-portal.ts'

const portal = await startInProcessPortal('bench-portal', (dataDir) => ({ DATABASE_URL: join(dataDir, 'relay.sqlite') }))
const clientDir = join(process.env.BUILD_DIR ?? 'build', 'client')

function brotliSize(asset: string): number {
  const path = join(clientDir, asset)
  try {
    return statSync(`${path}.br`).size
  } catch {
    return readFileSync(path).length // under 512 bytes: served as is
  }
}

// ── First-load JavaScript (docs/decisions/030-first-paint-and-charts.md) ──────────────────────────────────────────

/** The built modules a built module imports statically (`import … from "./x.js"`, `import "./x.js"`). */
function staticImports(asset: string): string[] {
  const code = readFileSync(join(clientDir, asset), 'utf8')
  return [...code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?"(\.\/[^"]+\.js)"/g)].map((m) => `/assets/${m[1]!.slice(2)}`)
}

/** The modules a built module imports with `import("./x.js")`. */
function dynamicImports(asset: string): string[] {
  const code = readFileSync(join(clientDir, asset), 'utf8')
  return [...code.matchAll(/import\("(\.\/[^"]+\.js)"\)/g)].map((m) => `/assets/${m[1]!.slice(2)}`)
}

/**
 * The scripts a page fetches before the visitor interacts: those the HTML preloads or imports,
 * with every module they import statically. A page that hydrates at once (no
 * `data-hydrate="on-interaction"`) also fetches what its entry imports dynamically — React and
 * its language's messages, not the other two languages'.
 */
function firstLoadScripts(html: string): string[] {
  const found = new Set([...html.matchAll(/(?:modulepreload" href|import\(|from )"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!))
  const lang = /<html lang="(\w+)"/.exec(html)?.[1]
  const entry = /import\("(\/assets\/entry\.client-[^"]+\.js)"\)/.exec(html)?.[1]
  if (entry && !html.includes('data-hydrate="on-interaction"')) {
    const otherLanguages = new RegExp(`^/assets/(?!${lang}-)(zh|en|ja)-`)
    for (const asset of dynamicImports(entry)) if (!otherLanguages.test(asset)) found.add(asset)
  }
  for (const asset of found) for (const imported of staticImports(asset)) found.add(imported)
  return [...found]
}

/** Whether the portal itself serves `path` (a route of the build), rather than the relay or Home's catch-all. */
async function portalServes(path: string): Promise<boolean> {
  const build = (await import(pathToFileURL(resolve(process.env.BUILD_DIR ?? 'build', 'server/index.js')).href)) as { routes: Record<string, { path?: string }> }
  return Object.values(build.routes).some((route) => route.path === path.slice(1))
}

// ─────────────────────────────────────────────────────────────────────────────────────────────

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function timePage(visitor: Visitor, path: string, runs: number) {
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
const member = await portal.signedIn(username, password)
const guest = portal.visitor()

const publicPaths = ['/', '/auth/login', '/auth/register', '/auth/forgot-password', '/privacy', '/terms', '/auth/device-code', '/pricing', '/status']
// /api/docs is the relay's page unless the portal has a route for it.
if (await portalServes('/api/docs')) publicPaths.push('/api/docs')
const pages: Array<[string, Visitor]> = [...publicPaths.map((path): [string, Visitor] => [path, guest]), ['/dashboard', member]]
const runs = 150
console.log(`portal benchmark: ${runs} sequential renders per page, in-process, embedded relay on SQLite\n`)
console.log('page'.padEnd(22), 'first-load JS br KiB'.padStart(21), 'JS requests'.padStart(12), 'HTML br KiB'.padStart(12), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8))
for (const [path, visitor] of pages) {
  const html = await (await visitor.get(path)).text()
  const scripts = firstLoadScripts(html)
  const js = scripts.reduce((sum, s) => sum + brotliSize(s), 0)
  for (let i = 0; i < 10; i++) await (await visitor.get(path)).text() // warm up
  const samples = await timePage(visitor, path, runs)
  console.log(
    path.padEnd(22),
    (js / 1024).toFixed(1).padStart(21),
    String(scripts.length).padStart(12),
    (brotliCompressSync(html).length / 1024).toFixed(1).padStart(12),
    percentile(samples, 50).toFixed(2).padStart(8),
    percentile(samples, 95).toFixed(2).padStart(8),
  )
}
console.log('\nfirst-load JS: brotli bytes and requests of the scripts a page fetches before any interaction (public pages hydrate at the first one;')
console.log('the dashboard at once). HTML: brotli bytes of the document, the stylesheet inlined in it.')

await portal.close()
