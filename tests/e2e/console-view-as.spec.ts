/**
 * View as user (docs/console.md), with JavaScript on and off: the operator sees the user's own
 * pages with a banner, a form post is refused and changes nothing, the exit returns to the console.
 */
import { createUser, expect, relayApi, signInAsOperator, test } from './fixtures.ts'

test.beforeEach(() => test.slow())

test("an operator reads a user's keys as the user sees them, cannot create one, and exits", async ({ page }) => {
  const owner = await createUser()
  const { access_token: token } = await relayApi('/api/user/login', { username: owner.username, password: owner.password })
  await relayApi('/api/user/api-keys', { name: 'owners-key' }, token)
  const operator = await signInAsOperator(page)

  await page.goto(`/admin/users?q=${owner.username}`)
  await page.getByRole('link', { name: owner.username }).click()
  await page.getByTestId('view-as-form').getByRole('button').click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByTestId('view-as-banner')).toContainText(`正在以 ${owner.username} 的视角查看（只读）`)
  await expect(page.getByTestId('current-user')).toHaveText(owner.username)

  await page.goto('/api-keys')
  await expect(page.getByText('owners-key').first()).toBeVisible()
  // A form post while viewing is refused before any action runs.
  await page.getByLabel('密钥名称').fill('operators-key')
  await page.getByRole('button', { name: '创建密钥' }).click()
  await expect(page.getByText('正在以用户视角只读查看，不能执行任何操作')).toBeVisible()
  const keys = await fetch(new URL('/api/user/api-keys', page.url()), { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())
  expect(keys.data.items.map((k: { name: string }) => k.name)).toEqual(['owners-key'])

  await page.getByTestId('view-as-exit').click()
  await expect(page).toHaveURL(/\/admin\/users\/\d+$/)
  await expect(page.getByTestId('view-as-banner')).toHaveCount(0)
  await page.goto(`/admin/audit?actor=${operator.username}&action=user.view_as`)
  await expect(page.getByTestId('audit-row')).toHaveCount(1)
})
