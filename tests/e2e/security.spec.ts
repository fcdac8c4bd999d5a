/** Account security: two-factor enrolment and sign-in, the security page, sessions ended elsewhere; JS on and off. */
import { readFileSync } from 'node:fs'
import { totpCode } from '../../relay/auth/totp.ts'
import { createUser, expect, signIn, signOut, test } from './fixtures.ts'

test('enrol in two-factor sign-in, then sign in with a code and with a recovery code, never with a wrong one', async ({ page }) => {
  // Four sign-ins and an enrolment: more than one ordinary test's time on a busy machine.
  test.slow()
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)

  await page.goto('/profile')
  await page.getByTestId('security-link').click()
  await expect(page).toHaveURL(/\/profile\/security$/)
  await expect(page.getByTestId('two-factor-state')).toHaveText('未开启')
  await page.getByRole('button', { name: '开启两步验证' }).click()

  await expect(page).toHaveURL(/\/profile\/security\/two-factor$/)
  await expect(page.getByTestId('qr-code').locator('svg')).toBeVisible()
  const secret = (await page.getByTestId('secret').innerText()).replace(/\s/g, '')
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await page.getByLabel('动态码').fill('000000')
  await page.getByRole('button', { name: '验证并开启' }).click()
  await expect(page.getByText('两步验证码错误或已使用')).toBeVisible()
  await page.getByLabel('动态码').fill(totpCode(secret, Date.now()))
  await page.getByRole('button', { name: '验证并开启' }).click()
  await expect(page.getByTestId('recovery-code')).toHaveCount(10)
  const codes = await page.getByTestId('recovery-code').allInnerTexts()
  await page.getByRole('link', { name: '我已保存，返回安全设置' }).click()
  await expect(page.getByTestId('two-factor-state')).toHaveText('已开启')

  // The password step starts no session: the code step asks, and a wrong code is refused.
  await signOut(page)
  await page.goto('/auth/login?redirectTo=%2Fprofile%2Fsecurity')
  await signIn(page, user)
  await expect(page).toHaveURL(/\/auth\/login\/two-factor$/)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard&reason=required$/)
  await page.goto('/auth/login/two-factor')
  await page.getByLabel('动态码或恢复码').fill('000000')
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page.getByText('两步验证码错误或已使用')).toBeVisible()
  // The code enrolment used is spent; the next step's is within the window.
  await page.getByLabel('动态码或恢复码').fill(totpCode(secret, Date.now() + 30_000))
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page).toHaveURL(/\/profile\/security$/)

  await signOut(page)
  await signIn(page, user)
  await page.getByLabel('动态码或恢复码').fill(codes[0]!)
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile/security')
  await expect(page.getByText('剩余 9 个恢复码')).toBeVisible()
  const history = page.getByTestId('sign-in')
  await expect(history.first()).toContainText('成功')
  await expect(page.getByTestId('sign-ins')).toContainText('动态码错误')

  // A used recovery code does not work again.
  await signOut(page)
  await signIn(page, user)
  await page.getByLabel('动态码或恢复码').fill(codes[0]!)
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page.getByText('两步验证码错误或已使用')).toBeVisible()
})

test('a sign-in link opened while signed in goes to its page, never to a signed-out page or off the site', async ({ page }) => {
  await signIn(page, await createUser())
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/auth/login?redirectTo=%2Fprofile%2Fsecurity')
  await expect(page).toHaveURL(/\/profile\/security$/)
  await page.goto('/auth/login?redirectTo=%2Fauth%2Fregister')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/auth/register?redirectTo=%2F%2Fevil.example%2F')
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('a session signed out from another browser: its next page says the session expired', async ({ page, browser, jsEnabled }) => {
  const user = await createUser()
  const other = await browser.newContext({ javaScriptEnabled: jsEnabled, locale: 'zh-CN' })
  const elsewhere = await other.newPage()
  await signIn(elsewhere, user)
  await expect(elsewhere).toHaveURL(/\/dashboard$/)
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)

  await page.goto('/profile/security')
  const sessions = page.getByTestId('session')
  await expect(sessions).toHaveCount(2)
  await expect(sessions.filter({ hasText: '当前设备' })).toHaveCount(1)
  await sessions.filter({ hasNotText: '当前设备' }).getByRole('button', { name: '退出' }).click()
  await expect(page.getByText('已退出该设备')).toBeVisible()
  await expect(page.getByTestId('session')).toHaveCount(1)

  // A sign-in link to a page, opened with the ended session's cookie: that page finds the session
  // ended and asks again, its address kept (docs/decisions/099-sign-in.md).
  await elsewhere.goto('/auth/login?redirectTo=%2Ftickets')
  await expect(elsewhere).toHaveURL(/\/auth\/login\?redirectTo=%2Ftickets&reason=expired$/)
  await expect(elsewhere.getByTestId('login-notice')).toHaveText('登录状态已过期，请重新登录')
  // Signed in again, it lands where it was going.
  await signIn(elsewhere, user)
  await expect(elsewhere).toHaveURL(/\/tickets$/)
  await other.close()

  // Without any session, a protected page asks to log in first.
  const fresh = await browser.newContext({ javaScriptEnabled: jsEnabled, locale: 'zh-CN' })
  const stranger = await fresh.newPage()
  await stranger.goto('/points')
  await expect(stranger.getByTestId('login-notice')).toHaveText('请先登录')
  await fresh.close()
})

test('recovery codes: copied at once with scripts, one selectable block without, saved as a .txt file, and replaced for a current code', async ({ page, context, jsEnabled }) => {
  test.slow()
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile/security/two-factor')
  await page.getByRole('button', { name: '开始设置' }).click()
  const secret = (await page.getByTestId('secret').innerText()).replace(/\s/g, '')
  await page.getByLabel('动态码').fill(totpCode(secret, Date.now()))
  await page.getByRole('button', { name: '验证并开启' }).click()
  await expect(page.getByTestId('recovery-code')).toHaveCount(10)
  const codes = await page.getByTestId('recovery-code').allInnerTexts()

  // One click selects the whole block; with scripts a button copies all ten.
  await expect(page.getByTestId('recovery-code-block')).toHaveCSS('user-select', 'all')
  if (jsEnabled) {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.getByRole('button', { name: '复制全部恢复码' }).click()
    await expect(page.getByText('已复制')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'))
  } else {
    await expect(page.getByRole('button', { name: '复制全部恢复码' })).toHaveCount(0)
    await expect(page.getByText('点击上方方框即可选中全部恢复码')).toBeVisible()
  }
  const downloading = page.waitForEvent('download')
  await page.getByTestId('download-recovery-codes').click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('recovery-codes.txt')
  expect(readFileSync((await download.path())!, 'utf8')).toBe(`${codes.join('\r\n')}\r\n`)
  // The page is still there to read.
  await expect(page.getByTestId('recovery-code')).toHaveCount(10)

  await page.goto('/profile/security')
  await expect(page.getByText('剩余 10 个恢复码')).toBeVisible()
  await page.getByTestId('replace-recovery-codes').click()
  await expect(page).toHaveURL(/\/profile\/security\/two-factor$/)
  await page.getByLabel('动态码或恢复码').fill('000000')
  await page.getByRole('button', { name: '生成新的恢复码' }).click()
  await expect(page.getByText('两步验证码错误或已使用')).toBeVisible()
  // The code enrolment used is spent; the next step's is within the window.
  await page.getByLabel('动态码或恢复码').fill(totpCode(secret, Date.now() + 30_000))
  await page.getByRole('button', { name: '生成新的恢复码' }).click()
  await expect(page.getByText('已生成新的恢复码，旧的恢复码已失效')).toBeVisible()
  await expect(page.getByTestId('recovery-code')).toHaveCount(10)
  const fresh = await page.getByTestId('recovery-code').allInnerTexts()
  expect(fresh.filter((code) => codes.includes(code))).toEqual([])

  // Two-factor stays on: an old code is refused, a new one signs in.
  await signOut(page)
  await signIn(page, user)
  await page.getByLabel('动态码或恢复码').fill(codes[0]!)
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page.getByText('两步验证码错误或已使用')).toBeVisible()
  await page.getByLabel('动态码或恢复码').fill(fresh[0]!)
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
})
