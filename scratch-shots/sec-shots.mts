import { chromium, type Page } from 'playwright-core'
import { totpCode } from '../relay/auth/totp.ts'

const base = 'http://127.0.0.1:3301'
const out = '/work/shots/security'
const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
const variants = [
  { name: 'desktop-light', width: 1280, height: 900, scheme: 'light' as const, mobile: false },
  { name: 'desktop-dark', width: 1280, height: 900, scheme: 'dark' as const, mobile: false },
  { name: 'phone-light', width: 390, height: 844, scheme: 'light' as const, mobile: true },
  { name: 'phone-dark', width: 390, height: 844, scheme: 'dark' as const, mobile: true },
]

async function login(page: Page, username: string) {
  await page.goto(`${base}/auth/login`)
  await page.getByLabel('用户名或邮箱').fill(username)
  await page.getByLabel(/^密码$/).fill('a long password')
  await page.getByRole('button', { name: /^登录$/ }).click()
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args })
let recovery: string[] = []
let secretB = ''
// User B: enrolled once, its recovery codes kept for the sign-ins below.
{
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 900 }, colorScheme: 'light' })
  const page = await context.newPage()
  await login(page, 'shotsb')
  await page.waitForURL(/dashboard/)
  await page.goto(`${base}/profile/security`)
  await page.getByRole('button', { name: '开启两步验证' }).click()
  await page.waitForURL(/two-factor/)
  secretB = (await page.getByTestId('secret').innerText()).replace(/\s/g, '')
  await page.getByLabel('动态码').fill(totpCode(secretB, Date.now()))
  await page.getByRole('button', { name: '验证并开启' }).click()
  await page.getByTestId('recovery-code').first().waitFor()
  recovery = await page.getByTestId('recovery-code').allInnerTexts()
  await page.screenshot({ path: `${out}/recovery-codes-desktop-light.png`, fullPage: true })
  await context.close()
}
for (const v of variants) {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: v.width, height: v.height }, colorScheme: v.scheme, isMobile: v.mobile, hasTouch: v.mobile, deviceScaleFactor: v.mobile ? 2 : 1 })
  const page = await context.newPage()
  // User A: an enrolment left pending, so each variant shows the QR code.
  await login(page, 'shotsa')
  await page.waitForURL(/dashboard/)
  await page.goto(`${base}/profile/security/two-factor`)
  if (await page.getByRole('button', { name: '开始设置' }).isVisible()) {
    await page.getByRole('button', { name: '开始设置' }).click()
    await page.getByTestId('qr-code').waitFor()
  }
  await page.screenshot({ path: `${out}/enrolment-${v.name}.png`, fullPage: true })
  await context.clearCookies()
  await login(page, 'shotsb')
  await page.waitForURL(/two-factor/)
  await page.getByLabel('动态码或恢复码').fill('000000')
  await page.getByRole('button', { name: '验证' }).click()
  await page.getByText('两步验证码错误或已使用').first().waitFor()
  await page.screenshot({ path: `${out}/sign-in-step-${v.name}.png`, fullPage: true })
  await page.getByLabel('动态码或恢复码').fill(recovery.shift()!)
  await page.getByRole('button', { name: '验证' }).click()
  await page.waitForURL(/dashboard/)
  await page.goto(`${base}/profile/security`)
  await page.screenshot({ path: `${out}/security-${v.name}.png`, fullPage: true })
  if (v.name === 'phone-dark') {
    await page.goto(`${base}/profile`)
    await page.screenshot({ path: `${out}/profile-${v.name}.png`, fullPage: true })
  }
  await context.close()
}
// The notice a session ended elsewhere leaves on the login page.
{
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true, deviceScaleFactor: 2 })
  const page = await context.newPage()
  await page.goto(`${base}/auth/login?redirectTo=%2Fdashboard&reason=expired`)
  await page.screenshot({ path: `${out}/login-expired-phone-dark.png`, fullPage: true })
  await context.close()
}
await browser.close()
