/**
 * The console's catalogue (docs/decisions/115-operator-console.md), with JavaScript on and off: an admin creates and
 * edits a package, creates a team and renews it, manages resource links, changes the referral
 * rule and registers, edits and removes an OAuth client; each action shows in the audit log.
 * Tickets, resets, codes, users and points: console.spec.ts.
 */
import { createUser, expect, signInAsOperator, test, uniqueName } from './fixtures.ts'

// Operator commands start a process each.
test.beforeEach(() => test.slow())

test('an admin creates a package and edits its terms; the audit log shows both', async ({ page }) => {
  const operator = await signInAsOperator(page)
  await page.getByTestId('nav-admin').last().click()
  await page.getByTestId('admin-nav').getByRole('link', { name: '套餐' }).click()
  await expect(page).toHaveURL(/\/admin\/packages$/)
  const code = uniqueName('P').toUpperCase()

  const form = page.getByTestId('create-package')
  await form.getByLabel('代码').fill(code)
  await form.locator('[name="name.zh"]').fill('专业版')
  await form.locator('[name="name.en"]').fill('Pro')
  await form.locator('[name="name.ja"]').fill('プロ')
  await form.getByLabel('积分上限').fill('5000')
  await form.getByLabel('价格（元）').fill('199')
  await form.getByRole('button', { name: '创建套餐' }).click()
  await expect(page.getByText(`套餐 ${code} 已创建`)).toBeVisible()
  const row = page.locator(`[data-testid="package-row"][data-code="${code}"]`)
  await expect(row).toContainText('专业版')
  await expect(row).toContainText('¥199.00')

  // Unused: its terms change.
  await row.getByRole('link', { name: `编辑 ${code}` }).click()
  // With scripts the page changes in place: the list's create form has the same fields.
  await expect(page).toHaveURL(/\/admin\/packages\/\d+$/)
  await page.getByTestId('edit-package').getByLabel('积分上限').fill('6000')
  await page.getByRole('button', { name: '保存' }).click()
  await expect(page.getByText(`套餐 ${code} 已保存`)).toBeVisible()
  await expect(row).toContainText('6,000')

  await page.goto(`/admin/audit?target=${code}`)
  await expect(page.getByTestId('audit-row')).toHaveCount(2)
  await expect(page.getByTestId('audit-row').nth(0)).toHaveAttribute('data-action', 'package.update')
  await expect(page.getByTestId('audit-row').nth(1)).toHaveAttribute('data-action', 'package.create')
  await expect(page.getByTestId('audit-row').nth(1)).toContainText(operator.username)
})

test('an admin creates a team, sees its owner as member, renews it; the audit log shows both', async ({ page }) => {
  await signInAsOperator(page)
  const owner = await createUser()
  await page.goto('/admin/teams')
  const form = page.getByTestId('create-team')
  await form.getByLabel('团队名称').fill(`Team ${owner.username}`)
  await form.getByLabel('所有者').fill(owner.username)
  await form.getByRole('button', { name: '创建团队' }).click()
  await expect(page.getByText('团队已创建')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/teams\/\d+$/)
  await expect(page.getByRole('heading', { name: `Team ${owner.username}` })).toBeVisible()
  await expect(page.getByTestId('team-member')).toHaveCount(1)
  await expect(page.getByTestId('team-member')).toContainText(owner.username)
  const teamId = /\/admin\/teams\/(\d+)$/.exec(page.url())![1]!

  // Renewing voids the points left, so it asks first.
  await page.getByTestId('renew-team').locator('summary').click()
  await page.getByRole('alertdialog').getByRole('button', { name: '续期' }).click()
  await expect(page.getByText('团队已续期')).toBeVisible()

  await page.goto(`/admin/audit?target=${teamId}`)
  await expect(page.getByTestId('audit-row')).toHaveCount(2)
  await expect(page.getByTestId('audit-row').nth(0)).toHaveAttribute('data-action', 'team.renew')
  await expect(page.getByTestId('audit-row').nth(1)).toHaveAttribute('data-action', 'team.create')
})

test('an admin manages resource links, the referral rule and an OAuth client; the audit log shows each', async ({ page }) => {
  const operator = await signInAsOperator(page)
  const title = uniqueName('Guide ')

  await page.goto('/admin/resources')
  const linkForm = page.getByTestId('resource-form')
  await linkForm.getByLabel('标题').fill(title)
  await linkForm.getByLabel('地址').fill('https://docs.example.com/start')
  await linkForm.getByRole('button', { name: '添加' }).click()
  await expect(page.getByText('链接已添加')).toBeVisible()
  await page.getByRole('link', { name: `编辑 ${title}` }).click()
  await expect(page.getByRole('heading', { name: '编辑链接' })).toBeVisible()
  await page.getByTestId('resource-form').getByLabel('标题').fill(`${title} 2`)
  await page.getByTestId('resource-form').getByRole('button', { name: '保存' }).click()
  await expect(page.getByText('链接已保存')).toBeVisible()
  await page.getByLabel(`删除 ${title} 2`).click()
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click()
  await expect(page.getByText('链接已删除')).toBeVisible()
  await expect(page.getByText(`${title} 2`)).toHaveCount(0)

  await page.goto('/admin/referral')
  const rule = page.getByTestId('referral-rule')
  const inviter = rule.locator('[name="later.inviter_points"]')
  const kept = await inviter.inputValue()
  await inviter.fill(String(Number(kept) + 1))
  await rule.getByRole('button', { name: '保存规则' }).click()
  await expect(page.getByText('邀请规则已保存')).toBeVisible()
  await expect(page.locator('[name="later.inviter_points"]')).toHaveValue(String(Number(kept) + 1))
  // Put it back: other specs read the rule.
  await page.locator('[name="later.inviter_points"]').fill(kept)
  await page.getByRole('button', { name: '保存规则' }).click()
  await expect(page.getByText('邀请规则已保存')).toBeVisible()

  await page.goto('/admin/oauth-clients')
  const name = uniqueName('App ')
  const clientForm = page.getByTestId('client-form')
  await clientForm.getByLabel('名称').fill(name)
  await clientForm.getByLabel('回调地址').fill('http://example.com/cb')
  await clientForm.getByRole('button', { name: '注册' }).click()
  // Plain http off this machine is refused, and what was typed stays.
  await expect(page.getByTestId('client-form').getByRole('alert')).toBeVisible()
  await expect(page.getByTestId('client-form').getByLabel('名称')).toHaveValue(name)
  await page.getByTestId('client-form').getByLabel('回调地址').fill('https://app.example.com/cb')
  await page.getByTestId('client-form').getByRole('button', { name: '注册' }).click()
  await expect(page.getByTestId('client-secret')).toHaveText(/^rcs_/)
  await page.getByLabel(`删除 ${name}`).click()
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click()
  await expect(page.getByText('客户端已删除')).toBeVisible()

  await page.goto(`/admin/audit?actor=${operator.username}`)
  const actions = await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')))
  expect(actions).toEqual(['oauth_client.remove', 'oauth_client.create', 'referral_rule.set', 'referral_rule.set', 'resource.remove', 'resource.update', 'resource.add'])
})
