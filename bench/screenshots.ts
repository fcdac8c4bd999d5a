/**
 * `npm run screenshots`: the operator console as the README shows it — its overview and its call
 * log, light and dark, desktop and phone, in Chinese — written to docs/screenshots/. Served by
 * the production server (run `npm run build` first) on the seeded history of bench/seed-history.ts
 * (a 1M-call account among 100k users; made on first use and kept in bench/.data/), in Debian's
 * Chromium (`/usr/bin/chromium`, or `CHROMIUM_PATH`).
 */
import { mkdirSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { openDatabase } from '../relay/db/open-database.ts'
import { seededDatabase } from './seed-history.ts'
import { startProductionServer } from '../tests/fixtures/production-server.ts'

const outDir = 'docs/screenshots'
const screens = [
  { name: 'console-overview', path: '/admin?period=7d' },
  { name: 'console-calls', path: '/admin/calls' },
] as const
const devices = [
  { name: 'desktop', viewport: { width: 1280, height: 860 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const
const schemes = ['light', 'dark'] as const

const seeded = await seededDatabase('sqlite')
const server = await startProductionServer({ kind: 'sqlite', url: seeded.url, open: () => openDatabase(seeded.url), dispose: async () => {} })
let browser: Browser | undefined
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  // Signed in once through the form, as an operator would; every context reuses the cookies.
  const signIn = await browser.newContext({ locale: 'zh-CN' })
  const page = await signIn.newPage()
  await page.goto(`${server.url}/auth/login`)
  await page.fill('input[name="username"]', seeded.admin.username)
  await page.fill('input[name="password"]', seeded.admin.password)
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/auth/')), page.click('main form button[type="submit"]')])
  const cookies = await signIn.cookies()
  await signIn.close()

  mkdirSync(outDir, { recursive: true })
  for (const device of devices) {
    for (const colorScheme of schemes) {
      const context = await browser.newContext({ locale: 'zh-CN', colorScheme, viewport: device.viewport, isMobile: device.isMobile, hasTouch: device.isMobile, deviceScaleFactor: 1 })
      await context.addCookies(cookies)
      const tab = await context.newPage()
      for (const screen of screens) {
        await tab.goto(`${server.url}${screen.path}`, { waitUntil: 'networkidle' })
        const file = `${outDir}/${screen.name}-${device.name}-${colorScheme}.png`
        await tab.screenshot({ path: file })
        console.log(file)
      }
      await context.close()
    }
  }
} finally {
  await browser?.close()
  await server.stop()
}
