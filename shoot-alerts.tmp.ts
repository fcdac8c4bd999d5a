// Screenshot helper (not committed): seeds a server and shoots /admin/alerts and /admin.
import { chromium } from '@playwright/test'

const base = process.env.BASE!
const user = process.env.ADMIN_USER!
const password = process.env.ADMIN_PASSWORD!

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
for (const theme of ['light', 'dark'] as const) {
  for (const [label, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]] as const) {
    const context = await browser.newContext({ viewport: { width, height }, locale: 'zh-CN', deviceScaleFactor: 1, isMobile: label === 'phone' })
    await context.addCookies([{ name: 'theme', value: theme === 'dark' ? 'ImRhcmsi' : 'ImxpZ2h0Ig==', url: base }])
    const page = await context.newPage()
    await page.goto(`${base}/auth/login`)
    await page.getByLabel(/用户名或邮箱/).fill(user)
    await page.getByLabel(/^密码$/).fill(password)
    await page.getByRole('button', { name: /^登录$/ }).click()
    await page.waitForURL(/dashboard/)
    for (const [name, path] of [['alerts', '/admin/alerts'], ['overview', '/admin']] as const) {
      await page.goto(`${base}${path}`)
      await page.waitForLoadState('networkidle')
      await page.screenshot({ path: `/tmp/shots-alerts/${name}-${theme}-${label}.png`, fullPage: true })
    }
    await context.close()
  }
}
await browser.close()
