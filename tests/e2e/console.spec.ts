/**
 * The operator console (docs/decisions/115-operator-console.md), with JavaScript on and off: an admin answers a
 * ticket, decides a points-reset request, disables a user, grants points, generates and revokes
 * redeem codes; each action shows in the audit log. Anyone else gets the 404 page at /admin.
 * The catalogue's flows (packages, teams, links, referral rule, clients): console-flows.spec.ts.
 */
import { admin, createUser, expect, relayApi, signIn, signInAsOperator, test, type TestUser } from './fixtures.ts'

// Operator commands start a process each.
test.beforeEach(() => test.slow())

/** A user on the personal package whose second reset request waits for an operator (the first used the cooldown). */
async function userWithWaitingReset(): Promise<TestUser & { token: string; ticket: string }> {
  const user = await createUser()
  const [code] = (await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1')).split('\n')
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  await relayApi('/api/user/redeem-code', { redeem_code: code!.trim() }, token)
  const ask = () => relayApi('/api/user/points/reset-ticket', { reason: 'misoperation', description: 'a script ran away' }, token)
  await admin('points', 'deduct', '--user', user.username, '--amount', '100', '--reason', 'setup')
  await ask()
  await admin('points', 'deduct', '--user', user.username, '--amount', '300', '--reason', 'setup')
  const waiting = await ask()
  return { ...user, token: token!, ticket: waiting.ticket_number! }
}

test('only admins find the console', async ({ page }) => {
  const response = await page.goto('/admin/tickets')
  expect(response?.status()).toBe(404)
  await signIn(page, await createUser('team'))
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByTestId('nav-admin')).toHaveCount(0)
  expect((await page.goto('/admin/users'))?.status()).toBe(404)
  await expect(page.getByTestId('admin-nav')).toHaveCount(0)
})

test('an admin answers a ticket, decides a reset, disables a user and grants points; the audit log shows each', async ({ page, jsEnabled }) => {
  const operator = await createUser('admin')
  const owner = await createUser()
  const { access_token: ownerToken } = await relayApi('/api/user/login', { username: owner.username, password: owner.password })
  const opened = await relayApi('/api/user/tickets', { type: 'consultation', title: `Help ${owner.username}`, content: 'How do I start?' }, ownerToken)
  const resetUser = await userWithWaitingReset()

  await signIn(page, operator)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.getByTestId('nav-admin').last().click()
  // The console opens on its overview; the queue is one link away.
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByTestId('admin-nav').last().getByRole('link', { name: '工单' }).click()
  await expect(page).toHaveURL(/\/admin\/tickets$/)

  // The queue, filtered to consultations, has the new ticket; answer it and move it to processing.
  await page.getByLabel('类型').selectOption('consultation')
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page).toHaveURL(/type=consultation/)
  await page.getByRole('link', { name: `Help ${owner.username}` }).click()
  await page.getByLabel('回复内容').fill('Start with an API key.')
  await page.getByLabel('回复后状态').selectOption('processing')
  await page.getByRole('button', { name: '发送回复' }).click()
  await expect(page.getByText('已回复')).toBeVisible()
  await expect(page.getByTestId('admin-ticket-status')).toContainText('处理中')
  await expect(page.getByTestId('admin-conversation').locator('li[data-author="admin"]')).toContainText('Start with an API key.')

  // The reset request: approve it; the balance is topped up to the 2,400 limit.
  await page.goto('/admin/tickets?type=pointsReset&status=pending')
  await page.getByTestId('admin-ticket-row').filter({ hasText: resetUser.ticket }).getByRole('link').first().click()
  // Decided on the owner's balance and limit, and their earlier resets.
  await expect(page.getByTestId('reset-facts')).toContainText('当前余额 / 上限2,100 / 2,400')
  // The fixture's user had a reset granted at once before asking again.
  await expect(page.getByTestId('reset-facts')).toContainText(/以往的重置T\d{10} /)
  await page.getByRole('button', { name: '批准重置' }).click()
  await expect(page.getByText('已批准重置，增加 300 积分')).toBeVisible()
  await expect(page.getByTestId('reset-decision')).toContainText('已经处理过了')
  await expect(page.getByTestId('reset-facts')).toContainText('2,400 / 2,400')

  // The user: find them, grant points, disable them.
  await page.getByRole('link', { name: '用户', exact: true }).last().click()
  await page.getByLabel('用户名、邮箱或 ID').fill(resetUser.username)
  await page.getByRole('button', { name: '搜索' }).click()
  await page.getByRole('link', { name: resetUser.username }).click()
  await expect(page.getByTestId('user-balance')).toHaveText('2,400')
  // Their usage chart, as their dashboard draws it: ten days.
  await expect(page.getByTestId('user-usage').getByTestId(jsEnabled ? 'chart-canvas' : 'chart-bars')).toBeVisible()
  await expect(page.getByTestId('user-usage').locator('table tr')).toHaveCount(10)
  await page.getByLabel('积分', { exact: true }).fill('150')
  await page.getByLabel('原因').fill('goodwill')
  await page.getByRole('button', { name: '提交', exact: true }).click()
  await expect(page.getByText('积分已增加，当前余额 2,550')).toBeVisible()
  await expect(page.getByTestId('user-balance')).toHaveText('2,550')
  // Disabling asks first: the first click only opens the confirmation.
  await page.getByTestId('disable-user').locator('summary').click()
  await expect(page.getByTestId('user-status')).toHaveAttribute('data-status', 'active')
  await page.getByRole('alertdialog').getByRole('button', { name: '停用账户' }).click()
  await expect(page.getByText('账户已停用')).toBeVisible()
  await expect(page.getByTestId('user-status')).toHaveAttribute('data-status', 'disabled')
  // Their session no longer works.
  const info = await fetch(new URL('/api/user/info', page.url()), { headers: { authorization: `Bearer ${resetUser.token}` } })
  expect(info.status).toBe(401)

  // The audit log: each action, by this admin.
  await page.getByRole('link', { name: '审计日志' }).last().click()
  await page.getByLabel('操作人').fill(operator.username)
  await page.getByRole('button', { name: '筛选' }).click()
  const rows = page.getByTestId('audit-row')
  await expect(rows).toHaveCount(4)
  await expect(rows.nth(0)).toHaveAttribute('data-action', 'user.disable')
  await expect(rows.nth(1)).toHaveAttribute('data-action', 'points.grant')
  await expect(rows.nth(2)).toHaveAttribute('data-action', 'points_reset.approve')
  await expect(rows.nth(3)).toHaveAttribute('data-action', 'ticket.reply')
  await expect(rows.nth(3).getByTestId('audit-target')).toHaveText(opened.number!)
})

test('an admin denies a reset request and the user sees why', async ({ page }) => {
  const resetUser = await userWithWaitingReset()
  await signInAsOperator(page)
  await page.goto(`/admin/tickets?type=pointsReset&status=pending`)
  await page.getByTestId('admin-ticket-row').filter({ hasText: resetUser.ticket }).getByRole('link').first().click()
  await page.getByLabel('拒绝理由（可选，将回复给用户）').fill('One reset per month.')
  await page.getByRole('button', { name: '拒绝', exact: true }).click()
  await expect(page.getByText('已拒绝重置申请')).toBeVisible()
  await expect(page.getByTestId('admin-ticket-status')).toContainText('已驳回')
  await page.goto(`/admin/audit?target=${resetUser.ticket}`)
  await expect(page.getByTestId('audit-row')).toHaveCount(1)
  await expect(page.getByTestId('audit-row')).toHaveAttribute('data-action', 'points_reset.deny')
})

test('an admin generates codes, sees them once, revokes one; the audit log shows both', async ({ page }) => {
  const operator = await signInAsOperator(page)
  await page.goto('/admin/codes')
  await page.getByLabel('数量').fill('2')
  await page.getByLabel('有效天数（可选）').fill('30')
  await page.getByRole('button', { name: '生成', exact: true }).click()
  const shown = page.getByTestId('generated-codes')
  await expect(shown).toContainText('已生成 2 个兑换码')
  const codes = (await shown.locator('textarea').inputValue()).split('\n')
  expect(codes).toHaveLength(2)
  await shown.getByRole('link').click()
  const rows = page.getByTestId('code-row')
  await expect(rows).toHaveCount(2)
  // Revoking asks first; the question alone changes nothing.
  await rows.first().locator('summary').click()
  await expect(page.locator('[data-testid="code-row"][data-state="revoked"]')).toHaveCount(0)
  await page.getByRole('alertdialog').getByRole('button', { name: '作废' }).click()
  await expect(page.getByText('兑换码已作废')).toBeVisible()
  await expect(page.locator('[data-testid="code-row"][data-state="revoked"]')).toHaveCount(1)
  await expect(page.locator('[data-testid="code-row"][data-state="unused"]')).toHaveCount(1)
  await page.goto(`/admin/audit?actor=${operator.username}`)
  await expect(page.getByTestId('audit-row')).toHaveCount(2)
  await expect(page.getByTestId('audit-row').nth(0)).toHaveAttribute('data-action', 'redeem_code.revoke')
  await expect(page.getByTestId('audit-row').nth(1)).toHaveAttribute('data-action', 'redeem_codes.generate')
})

