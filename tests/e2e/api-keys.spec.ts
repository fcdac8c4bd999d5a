/** Create an API key, see it once, use it, delete it; with JavaScript on and off. */
import { e2eEnv } from './env.ts'
import { createUser, expect, signIn, test } from './fixtures.ts'

const usage = (key: string) => fetch(`${e2eEnv.baseUrl}/api/v1/usage`, { headers: { 'x-api-key': key } })

test('create an API key, see it once, delete it', async ({ page, context, jsEnabled }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/api-keys')
  await expect(page.getByTestId('keys-empty')).toBeVisible()

  // A name with markup shows as text.
  const name = 'laptop <b>bold</b>'
  await page.getByLabel('密钥名称').fill(name)
  await page.getByRole('button', { name: '创建密钥' }).click()
  const panel = page.getByTestId('created-key')
  await expect(panel).toBeVisible()
  await expect(panel.getByText('完整密钥只显示这一次')).toBeVisible()
  const key = await panel.getByLabel('您的新密钥').inputValue()
  expect(key).toMatch(/^sk-relay-[0-9A-Za-z]{40}$/)
  // The usage guide is filled in with this deployment and the new key.
  await expect(page.getByText(`export ANTHROPIC_BASE_URL="${e2eEnv.baseUrl}"`)).toBeVisible()
  await expect(page.getByText(`export ANTHROPIC_AUTH_TOKEN="${key}"`)).toBeVisible()

  const row = page.getByTestId('key-row')
  await expect(row).toHaveCount(1)
  await expect(row.getByText(name, { exact: true })).toBeVisible()
  await expect(row.getByText(`sk-relay-********${key.slice(-4)}`)).toBeVisible()
  await expect(row.getByText('从未使用')).toBeVisible()
  await expect(page.getByLabel('密钥名称')).toHaveValue('')

  if (jsEnabled) {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await panel.getByRole('button', { name: '复制' }).click()
    await expect(page.getByText('已复制', { exact: true })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
  } else {
    // Without JavaScript there is no copy button: the key sits in a selectable field.
    await expect(panel.getByRole('button', { name: '复制' })).toHaveCount(0)
  }

  expect((await usage(key)).status).toBe(200)

  // Shown once: a fresh visit has only the masked form, and the key has been used.
  await page.goto('/api-keys')
  await expect(page.getByTestId('created-key')).toHaveCount(0)
  expect(await page.content()).not.toContain(key)
  await expect(row.getByText('从未使用')).toHaveCount(0)

  // Deleting asks first.
  await row.getByText('删除', { exact: true }).click()
  await expect(row.getByText(`确定删除密钥“${name}”吗？`, { exact: false })).toBeVisible()
  await row.getByRole('button', { name: '确认删除' }).click()
  await expect(page.getByText('API 密钥已删除')).toBeVisible()
  await expect(page.getByTestId('keys-empty')).toBeVisible()
  expect((await usage(key)).status).toBe(401)
})

test('a blank key name is refused and nothing is created', async ({ page }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/api-keys')
  await page.getByLabel('密钥名称').fill('   ')
  await page.getByRole('button', { name: '创建密钥' }).click()
  await expect(page.getByText('请填写此项')).toBeVisible()
  await expect(page.getByTestId('keys-empty')).toBeVisible()
})
