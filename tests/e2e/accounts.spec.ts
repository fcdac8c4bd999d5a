/** Accounts end to end, with JavaScript on and off. */
import { createHash } from 'node:crypto'
import { compactDecrypt } from 'jose'
import { e2eEnv } from './env.ts'
import { admin, createUser, expect, latestCode, mailCount, signIn, signOut, test, uniqueName } from './fixtures.ts'

test('register with the e-mailed code, land signed in, then log out', async ({ page }) => {
  const username = uniqueName('reg')
  const email = `${username}@example.com`
  await page.goto('/auth/register')
  await page.getByLabel('用户名', { exact: true }).fill(username)
  await page.getByLabel('邮箱', { exact: true }).fill(email)
  const before = await mailCount(email)
  await page.getByRole('button', { name: '发送验证码' }).click()
  await expect(page.getByText('验证码已发送，请查收邮件')).toBeVisible()
  // What was typed survives the round trip (with JavaScript off the page was re-rendered).
  await expect(page.getByLabel('用户名', { exact: true })).toHaveValue(username)
  const code = await latestCode(email, { after: before })

  await page.getByLabel('邮箱验证码').fill(code)
  await page.getByLabel('密码', { exact: true }).fill('correct horse battery')
  await page.getByLabel('确认密码').fill('correct horse battery')
  await page.getByLabel(/我已阅读并同意/).check()
  await page.getByRole('button', { name: '注册', exact: true }).click()

  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('注册成功并已自动登录')).toBeVisible()
  await expect(page.getByTestId('current-user')).toHaveText(username)

  await signOut(page)
  await expect(page.getByText('已退出登录')).toBeVisible()
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard&reason=required$/)
})

test('registration errors are translated and keep the input', async ({ page }) => {
  const taken = await createUser()
  await page.goto('/auth/register')
  await page.getByLabel('用户名', { exact: true }).fill(taken.username)
  await page.getByLabel('邮箱', { exact: true }).fill('fresh-address@example.com')
  await page.getByLabel('密码', { exact: true }).fill('password-one')
  await page.getByLabel('确认密码').fill('password-two')
  await page.getByRole('button', { name: '注册', exact: true }).click()
  await expect(page.getByText('两次输入的密码不一致')).toBeVisible()
  await expect(page.getByText('请阅读并同意服务条款和隐私政策')).toBeVisible()
  await expect(page.getByLabel('用户名', { exact: true })).toHaveValue(taken.username)

  await page.getByRole('button', { name: '检查是否可用' }).click()
  await expect(page.getByText('该用户名已被占用')).toBeVisible()

  await page.getByLabel('邮箱', { exact: true }).fill('')
  await page.getByRole('button', { name: '发送验证码' }).click()
  await expect(page.getByText('请先输入邮箱地址')).toBeVisible()
})

test('login with remember-me keeps the session cookie for the refresh lifetime', async ({ page, context }) => {
  const user = await createUser()
  await signIn(page, user, { remember: true })
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('登录成功')).toBeVisible()
  const session = (await context.cookies()).find((c) => c.name === '__session')
  expect(session?.httpOnly).toBe(true)
  // Remember-me: the cookie lives as long as the refresh token (30 days), not the session.
  expect(session!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000)
  // The cookie is encrypted: the server's key opens it and holds both tokens, another key does
  // not, and neither token appears in the cookie as sent.
  const keyOf = (secret: string) => createHash('sha256').update(secret).digest()
  const opened = JSON.parse(new TextDecoder().decode((await compactDecrypt(session!.value, keyOf(e2eEnv.serverEnv.SESSION_SECRET!))).plaintext))
  expect(opened).toMatchObject({ accessToken: expect.stringMatching(/^eyJ/), refreshToken: expect.any(String), remember: true })
  await expect(compactDecrypt(session!.value, keyOf('another-secret-0123456789abcdef0123456789'))).rejects.toThrow()
  expect(session!.value).not.toContain(opened.accessToken)
  expect(session!.value).not.toContain(opened.refreshToken)
})

test('login without remember-me lives as long as the access token', async ({ page, context }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  const session = (await context.cookies()).find((c) => c.name === '__session')
  const lifetime = session!.expires * 1000 - Date.now()
  expect(lifetime).toBeLessThan(2 * 3600 * 1000 + 60_000)
  expect(lifetime).toBeGreaterThan(2 * 3600 * 1000 - 120_000)
})

test('a wrong password shows the translated error and keeps the username', async ({ page }) => {
  const user = await createUser()
  await signIn(page, { ...user, password: 'not-the-password' })
  await expect(page.getByText('用户名或密码错误')).toBeVisible()
  await expect(page.getByLabel('用户名或邮箱')).toHaveValue(user.username)
})

test('forgot password: code, reset, then sign in with the new password', async ({ page }) => {
  const user = await createUser()
  await page.goto('/auth/forgot-password')
  await page.getByRole('button', { name: '发送验证码' }).click()
  await expect(page.getByText('请先输入邮箱地址')).toBeVisible()

  await page.getByLabel('邮箱').fill(user.email)
  const before = await mailCount(user.email)
  await page.getByRole('button', { name: '发送验证码' }).click()
  await expect(page.getByText('验证码已发送，请查收邮件')).toBeVisible()
  const code = await latestCode(user.email, { after: before })

  await page.getByLabel('验证码').fill(code)
  await page.getByLabel('新密码', { exact: true }).fill('a brand new password')
  await page.getByLabel('确认新密码').fill('a brand new password')
  await page.getByRole('button', { name: '重置密码' }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)
  await expect(page.getByText('密码已重置，请使用新密码登录')).toBeVisible()

  await signIn(page, { ...user, password: 'a brand new password' })
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('a protected URL sends a visitor to login and back to that URL', async ({ page }) => {
  const user = await createUser()
  await page.goto('/points?page=2')
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fpoints%3Fpage%3D2&reason=required$/)
  await signIn(page, user)
  await expect(page).toHaveURL(/\/points\?page=2$/)
})

test('a signed-in visitor going to login or register lands on the dashboard', async ({ page }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/auth/login')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/auth/register')
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('language and theme switch with a form post and stick', async ({ page }) => {
  await page.goto('/privacy')
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh')
  await page.getByTestId('settings').first().click()
  await page.getByRole('button', { name: 'English' }).first().click()
  await expect(page).toHaveURL(/\/privacy$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms of service' })).toBeVisible()

  await page.getByTestId('settings').first().click()
  await page.getByRole('button', { name: 'Dark' }).first().click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.goto('/')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')

  await page.getByTestId('settings').first().click()
  await page.getByRole('button', { name: '日本語' }).first().click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
})

test('an unmatched path shows Home', async ({ page }) => {
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('link', { name: '注册' }).first()).toBeVisible()
})

test('the operator CLI lists its commands', async () => {
  const help = await admin('--help')
  expect(help).toContain('user create')
})
