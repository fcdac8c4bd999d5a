/**
 * The API reference at /api/docs (docs/decisions/100-one-declaration-per-call.md), with JavaScript on and off: reached
 * from the dashboard's quick link inside the portal's layout, read in another language, and a
 * call tried with the signed-in user's session (with JavaScript, without leaving the page).
 */
import { createUser, expect, signIn, test } from './fixtures.ts'

test('opens the API reference from the dashboard, switches language and tries a call', async ({ page, jsEnabled, baseURL }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)

  // The quick link, not the footer's.
  await page.getByRole('link', { name: /接口说明与在线调试/ }).click()
  await expect(page).toHaveURL(/\/api\/docs$/)
  await expect(page.getByRole('heading', { level: 1, name: 'API 参考' })).toBeVisible()
  await expect(page.getByTestId('base-url')).toHaveText(baseURL!)
  await expect(page.getByTestId('call-getApiUserPoints')).toContainText('我的积分')
  // The portal's own header, and the way back.
  await expect(page.getByRole('banner').getByRole('link', { name: '控制台' })).toBeVisible()

  await page.getByTestId('docs-nav').getByRole('link', { name: /^积分/ }).click()
  await expect(page).toHaveURL(/\/api\/docs\/points$/)
  await expect(page.getByRole('heading', { level: 1, name: '积分' })).toBeVisible()

  await page.getByTestId('settings').click()
  await page.getByRole('button', { name: 'English' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Points' })).toBeVisible()
  const card = page.getByTestId('operation-getApiUserPoints')
  // English is the call's own summary in its declaration (relay/contract/points.ts).
  await expect(card.getByRole('heading', { level: 2 })).toHaveText("The caller's points: balance, limit, use, frozen points, refill times, package")
  await expect(card).toContainText(`curl -sS '${baseURL}/api/user/points'`)

  // With scripts the form answers in place: a mark left on the page survives the call.
  if (jsEnabled) {
    // Public pages hydrate at the first interaction (docs/decisions/030-first-paint-and-charts.md): a first press starts
    // it, and the copy buttons, which exist only once hydrated, say when it is done.
    await card.getByRole('heading', { level: 2 }).click()
    await expect(card.getByRole('button', { name: /^Copy/ }).first()).toBeVisible()
    await page.evaluate(() => document.body.setAttribute('data-before-call', 'yes'))
  }
  await card.getByRole('button', { name: 'Send request' }).click()
  const result = page.getByTestId('try-result-getApiUserPoints')
  await expect(result).toContainText('HTTP 200')
  await expect(result).toContainText('"balance": 0')
  await expect(result).toContainText('"status": "none"')
  if (jsEnabled) await expect(page.locator('body')).toHaveAttribute('data-before-call', 'yes')
  await expect(page).toHaveURL(/\/api\/docs\/points(#getApiUserPoints)?$/)
})

test('shows the reference and its curl commands to a visitor, who is asked to sign in to try a call', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('contentinfo').getByRole('link', { name: 'API 文档' }).click()
  await expect(page).toHaveURL(/\/api\/docs$/)
  await page.getByTestId('call-getApiV1Usage').click()
  await expect(page).toHaveURL(/\/api\/docs\/api-keys#getApiV1Usage$/)
  const usage = page.getByTestId('operation-getApiV1Usage')
  await expect(usage).toContainText('API 密钥')
  await expect(usage).toContainText('-H "x-api-key: $RELAY_API_KEY"')

  const points = page.getByTestId('operation-getApiUserPoints')
  await page.getByTestId('docs-nav').getByRole('link', { name: /^积分/ }).click()
  await points.getByRole('link', { name: '登录' }).click()
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fapi%2Fdocs%2Fpoints$/)
})
