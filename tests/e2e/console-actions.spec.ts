/**
 * Operators' switches on a user's page (docs/console.md), with JavaScript on and off: a
 * destructive action asks first, ticked keys are disabled together with one audit row each, and
 * the owner's calls with them are refused.
 */
import { createUser, expect, relayApi, signInAsOperator, test } from './fixtures.ts'

test.beforeEach(() => test.slow())

test("an operator disables three of a user's four keys after confirming; the audit log has three rows", async ({ page }) => {
  const owner = await createUser()
  const { access_token: token } = await relayApi('/api/user/login', { username: owner.username, password: owner.password })
  const keys = []
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) keys.push(await relayApi('/api/user/api-keys', { name }, token))
  const operator = await signInAsOperator(page)

  await page.goto(`/admin/users?q=${owner.username}`)
  await page.getByRole('link', { name: owner.username }).click()
  const rows = page.getByTestId('user-key')
  await expect(rows).toHaveCount(4)

  // Nothing ticked: refused with a reason, nothing changed.
  await page.getByTestId('disable-keys').locator('summary').click()
  await page.getByRole('alertdialog').getByRole('button', { name: '停用密钥' }).click()
  await expect(page.getByText('请先选择至少一个密钥')).toBeVisible()
  await expect(page.locator('[data-testid="user-key"][data-enabled="false"]')).toHaveCount(0)

  for (const name of ['alpha', 'beta', 'gamma']) await page.getByLabel(`选择密钥“${name}”`).check()
  // The first click opens the question and changes nothing.
  await page.getByTestId('disable-keys').locator('summary').click()
  await expect(page.getByRole('alertdialog')).toContainText('停用所选密钥？')
  await expect(page.locator('[data-testid="user-key"][data-enabled="false"]')).toHaveCount(0)
  await page.getByRole('alertdialog').getByRole('button', { name: '停用密钥' }).click()
  await expect(page.getByText('已停用 3 个密钥')).toBeVisible()
  await expect(page.locator('[data-testid="user-key"][data-enabled="false"]')).toHaveCount(3)
  await expect(rows.filter({ hasText: 'delta' })).toHaveAttribute('data-enabled', 'true')

  // The owner's call with a disabled key is refused; the untouched key still answers.
  const usage = (key: string) => fetch(new URL('/api/v1/usage', page.url()), { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status)
  expect(await usage(keys[0]!.key!)).toBe(401)
  expect(await usage(keys[3]!.key!)).toBe(200)

  await page.goto(`/admin/audit?actor=${operator.username}&action=api_key.disable`)
  await expect(page.getByTestId('audit-row')).toHaveCount(3)
})
