/**
 * `npm run bench:paint`: how soon each page shows its content to a visitor on a slow phone
 * network, in Chromium, against the production server (server/main.ts as `npm start` runs it,
 * on a temporary SQLite file). Needs a build (`npm run build`) and /usr/bin/chromium.
 *
 * Each page is loaded cold (a new browser context: empty cache, no connections) BENCH_RUNS times
 * (default 3) under emulated slow 3G: 400 kbit/s each way, 400 ms round trip, CPU 4× slower. It
 * prints the median time until the page's content is painted, the floor no page could beat on
 * that link (one round trip per request the first paint waits for, plus the bytes of the HTML and
 * its stylesheets at 400 kbit/s), and the JavaScript fetched before any interaction (compressed
 * bytes and requests, counted until the network has been quiet for two seconds).
 * `BENCH_PAGES=/pricing,/status` measures only those pages. Asserts nothing.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext } from 'playwright-core'
import { openDatabase } from '../relay/db/open-database.ts'
import { startProductionServer, type ProductionServer } from '../tests/fixtures/production-server.ts'

const slow3g = { latencyMs: 400, bytesPerSecond: 400_000 / 8, cpuSlowdown: 4 }
const runs = Number(process.env.BENCH_RUNS ?? 3)

/** A page, and the element whose painting means its content is visible. */
interface PaintTarget {
  path: string
  selector: string
  signedIn?: boolean
}

const targets: PaintTarget[] = [
  { path: '/', selector: 'main h1' },
  { path: '/auth/login', selector: 'main form[method="post"] button[type="submit"]' },
  { path: '/auth/register', selector: 'main form[method="post"] button[type="submit"]' },
  { path: '/auth/forgot-password', selector: 'main form[method="post"] button[type="submit"]' },
  { path: '/privacy', selector: 'main h1' },
  { path: '/terms', selector: 'main h1' },
  { path: '/auth/device-code', selector: 'main h1' },
  { path: '/pricing', selector: 'main h1' },
  { path: '/status', selector: 'main h1' },
  // Whatever /api/docs serves (the relay's reference page, or a portal page once it is one).
  { path: '/api/docs', selector: 'h1' },
  { path: '/dashboard', selector: 'main dd', signedIn: true },
]

interface Load {
  /** Milliseconds from navigation to the target's first paint. */
  visibleMs: number
  htmlBytes: number
  cssBytes: number
  /** Requests the first paint waited for: the document and each stylesheet. */
  blockingRequests: number
  jsBytes: number
  jsRequests: number
}

/**
 * Runs in the page before anything else: notes when the target element is first painted — the
 * first animation frame after it is in the DOM (frames do not run while a stylesheet blocks
 * rendering), and never before the first contentful paint. A string, not a function: tsx would
 * wrap a function's inner names in a helper the page does not have.
 */
function watchForTarget(selector: string): string {
  return `(() => {
    const selector = ${JSON.stringify(selector)}
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') window.contentfulAt = entry.startTime
    }).observe({ type: 'paint', buffered: true })
    const look = () => {
      if (window.paintedAt !== undefined) return
      const element = document.querySelector(selector)
      if (element && element.getBoundingClientRect().height > 0) requestAnimationFrame((now) => (window.paintedAt ??= now))
      else requestAnimationFrame(look)
    }
    new MutationObserver((_, observer) => {
      if (document.querySelector(selector)) {
        observer.disconnect()
        look()
      }
    }).observe(document, { childList: true, subtree: true })
  })()`
}

async function coldLoad(browser: Browser, baseUrl: string, target: PaintTarget, cookies: Awaited<ReturnType<BrowserContext['cookies']>>): Promise<Load> {
  const context = await browser.newContext({ locale: 'zh-CN' })
  if (target.signedIn) await context.addCookies(cookies)
  const page = await context.newPage()
  await page.addInitScript({ content: watchForTarget(target.selector) })
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: slow3g.latencyMs,
    downloadThroughput: slow3g.bytesPerSecond,
    uploadThroughput: slow3g.bytesPerSecond,
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slow3g.cpuSlowdown })
  const types = new Map<string, string>()
  const sizes = { html: 0, css: 0, cssRequests: 0, js: 0, jsRequests: 0 }
  let lastActivity = Date.now()
  cdp.on('Network.requestWillBeSent', () => (lastActivity = Date.now()))
  cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type))
  cdp.on('Network.loadingFinished', (event) => {
    lastActivity = Date.now()
    const type = types.get(event.requestId)
    if (type === 'Document') sizes.html += event.encodedDataLength
    else if (type === 'Stylesheet') {
      sizes.css += event.encodedDataLength
      sizes.cssRequests += 1
    } else if (type === 'Script') {
      sizes.js += event.encodedDataLength
      sizes.jsRequests += 1
    }
  })
  await page.goto(`${baseUrl}${target.path}`, { waitUntil: 'load', timeout: 120_000 })
  await page.waitForFunction(() => (window as unknown as { paintedAt?: number }).paintedAt !== undefined, undefined, { timeout: 60_000 })
  // No interaction: whatever the page fetches on its own until the network rests.
  while (Date.now() - lastActivity < 2_000) await page.waitForTimeout(250)
  const { paintedAt, contentfulAt } = await page.evaluate(() => {
    const marks = window as unknown as { paintedAt: number; contentfulAt?: number }
    return { paintedAt: marks.paintedAt, contentfulAt: marks.contentfulAt }
  })
  await context.close()
  return {
    visibleMs: Math.max(paintedAt, contentfulAt ?? 0),
    htmlBytes: sizes.html,
    cssBytes: sizes.css,
    blockingRequests: 1 + sizes.cssRequests,
    jsBytes: sizes.js,
    jsRequests: sizes.jsRequests,
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The least time the first paint can take: a round trip per blocking request plus its bytes through the link. */
function floorMs(load: Load): number {
  return load.blockingRequests * slow3g.latencyMs + ((load.htmlBytes + load.cssBytes) / slow3g.bytesPerSecond) * 1000
}

/** A member with a package, signed in once without throttling; their cookies sign in each cold load. */
async function signedInCookies(browser: Browser, server: ProductionServer, databaseUrl: string) {
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error', PASSWORD_COST: '12' }
  const cli = (...args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', 'relay/cli.ts', ...args], { env, encoding: 'utf8' })
  cli('user', 'create', '--username', 'paintbench', '--email', 'paint@example.com', '--password', 'paint bench password')
  const code = cli('codes', 'create', '--package', 'PERSONAL', '--count', '1').trim().split('\n').at(-1)!.trim()
  const context = await browser.newContext({ locale: 'zh-CN' })
  const login = await context.request.post(`${server.url}/api/user/login`, { data: { username: 'paintbench', password: 'paint bench password' } })
  const { data } = (await login.json()) as { data: { access_token: string } }
  const redeemed = await context.request.post(`${server.url}/api/user/redeem-code`, {
    headers: { authorization: `Bearer ${data.access_token}` },
    data: { redeem_code: code },
  })
  if (!redeemed.ok()) throw new Error(`redeem failed: ${redeemed.status()} ${await redeemed.text()}`)
  const page = await context.newPage()
  await page.goto(`${server.url}/auth/login`)
  await page.fill('input[name="username"]', 'paintbench')
  await page.fill('input[name="password"]', 'paint bench password')
  await Promise.all([page.waitForURL('**/dashboard'), page.click('main form button[type="submit"]')])
  const cookies = await context.cookies()
  await context.close()
  return cookies
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-paint-'))
const databaseUrl = join(dataDir, 'relay.sqlite')
const server = await startProductionServer({ kind: 'sqlite', url: databaseUrl, open: () => openDatabase(databaseUrl), dispose: async () => {} })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})
try {
  const cookies = await signedInCookies(browser, server, databaseUrl)
  console.log(`first paint on slow 3G (400 kbit/s, 400 ms RTT, CPU ×4), median of ${runs} cold loads, production server\n`)
  console.log(
    'page'.padEnd(24),
    'visible ms'.padStart(11),
    'floor ms'.padStart(9),
    'HTML KiB'.padStart(9),
    'CSS KiB'.padStart(8),
    'blocking req'.padStart(13),
    'JS KiB'.padStart(7),
    'JS req'.padStart(7),
  )
  const only = process.env.BENCH_PAGES?.split(',')
  for (const target of targets.filter((t) => !only || only.includes(t.path))) {
    const loads: Load[] = []
    for (let i = 0; i < runs; i++) loads.push(await coldLoad(browser, server.url, target, cookies))
    const typical = loads.find((load) => load.visibleMs === median(loads.map((l) => l.visibleMs)))!
    console.log(
      target.path.padEnd(24),
      typical.visibleMs.toFixed(0).padStart(11),
      floorMs(typical).toFixed(0).padStart(9),
      (typical.htmlBytes / 1024).toFixed(1).padStart(9),
      (typical.cssBytes / 1024).toFixed(1).padStart(8),
      String(typical.blockingRequests).padStart(13),
      (typical.jsBytes / 1024).toFixed(1).padStart(7),
      String(typical.jsRequests).padStart(7),
    )
  }
  console.log('\nvisible: navigation start to the first paint of the page\'s content (sign-in form, main heading, dashboard figures).')
  console.log('floor: one round trip per request that first paint waits for + HTML and CSS bytes at 400 kbit/s. JS: fetched before any interaction, compressed.')
} finally {
  await browser.close()
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
