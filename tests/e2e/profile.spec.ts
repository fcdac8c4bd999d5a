/** Profile: details, resource links and the password change, JS on and off. */
import { admin, createUser, expect, signIn, signOut, test, uniqueName } from './fixtures.ts'

test('change the password: this session goes on, others end, and the new password signs in', async ({ page, browser }) => {
  const user = await createUser()
  const elsewhere = await browser.newPage()
  await signIn(elsewhere, user)
  await expect(elsewhere).toHaveURL(/\/dashboard$/)
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)

  await page.goto('/profile')
  await page.getByTestId('password-open').click()
  await page.getByLabel('当前密码').fill(user.password)
  await page.getByLabel('新密码', { exact: true }).fill('brand-new-password')
  await page.getByLabel('确认新密码').fill('brand-new-passwort')
  await page.getByRole('button', { name: '确认修改' }).click()
  await expect(page.getByText('新密码和确认密码不一致')).toBeVisible()

  await page.getByLabel('当前密码').fill('not-my-password')
  await page.getByLabel('新密码', { exact: true }).fill('brand-new-password')
  await page.getByLabel('确认新密码').fill('brand-new-password')
  await page.getByRole('button', { name: '确认修改' }).click()
  await expect(page.getByText('原密码错误')).toBeVisible()

  await page.getByLabel('当前密码').fill(user.password)
  await page.getByLabel('新密码', { exact: true }).fill('brand-new-password')
  await page.getByLabel('确认新密码').fill('brand-new-password')
  await page.getByRole('button', { name: '确认修改' }).click()
  await expect(page.getByText('密码已修改，其他设备已退出登录')).toBeVisible()

  // This session was given fresh tokens; the other one is over.
  await page.goto('/tickets')
  await expect(page).toHaveURL(/\/tickets$/)
  await elsewhere.goto('/tickets')
  await expect(elsewhere).toHaveURL(/\/auth\/login/)
  await elsewhere.close()

  await signOut(page)
  await signIn(page, user)
  await expect(page.getByText('用户名或密码错误')).toBeVisible()
  await signIn(page, { ...user, password: 'brand-new-password' })
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('edit the profile: saved values show as text, a bad avatar keeps what was typed', async ({ page }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  await page.getByLabel('姓名', { exact: true }).fill('<i>Alice</i>')
  await page.getByLabel('公司', { exact: true }).fill('Example & Co')
  await page.getByLabel('头像图片地址').fill('ftp://example.com/me.png')
  await page.getByRole('button', { name: '保存资料' }).click()
  await expect(page.getByText('请输入以 http:// 或 https:// 开头的链接')).toBeVisible()
  await expect(page.getByLabel('姓名', { exact: true })).toHaveValue('<i>Alice</i>')

  await page.getByLabel('头像图片地址').fill('')
  await page.getByRole('button', { name: '保存资料' }).click()
  await expect(page.getByText('资料已保存')).toBeVisible()
  const account = page.getByTestId('account')
  await expect(account.getByRole('heading', { name: '<i>Alice</i>' })).toBeVisible()
  await expect(account.locator('i')).toHaveCount(0)
  await expect(account).toContainText('Example & Co')
  await expect(account).toContainText(user.email)
  await expect(page.getByLabel('公司', { exact: true })).toHaveValue('Example & Co')
})

test('resource links: visit, copy (or select without JavaScript), count and refresh', async ({ page, context, jsEnabled }) => {
  const title = `<b>${uniqueName('Guide')}</b>`
  const url = `https://docs.example.com/${uniqueName('p')}`
  await admin('resource', 'add', '--title', title, '--url', url, '--description', '从这里开始')
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  const item = page.getByTestId('resource').filter({ hasText: title })
  await expect(item.getByRole('heading', { name: title })).toBeVisible()
  await expect(item.locator('h3 b')).toHaveCount(0)
  await expect(item.getByRole('link', { name: /访问/ })).toHaveAttribute('href', url)
  await expect(item.getByLabel(`${title} 的链接地址`)).toHaveValue(url)
  await expect(page.getByTestId('resources-meta')).toContainText(/共 \d+ 个链接 · 最近更新/)

  if (jsEnabled) {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await item.getByRole('button', { name: `复制「${title}」的链接` }).click()
    await expect(page.getByText('已复制')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url)
  } else {
    await expect(item.getByRole('button')).toHaveCount(0)
  }

  const later = `${uniqueName('Later')}`
  await admin('resource', 'add', '--title', later, '--url', 'https://example.com/later')
  await page.getByRole('button', { name: '刷新' }).click()
  await expect(page.getByTestId('resource').filter({ hasText: later })).toBeVisible()
})
