/**
 * The console's lists (docs/console.md), with JavaScript on and off: ticked rows are acted on
 * together after a confirmation, with one audit row each; a package taken off sale leaves the
 * pricing page and the code form; a batch of codes downloads as CSV.
 */
import { readFile } from 'node:fs/promises'
import { admin, expect, signInAsOperator, test, uniqueName } from './fixtures.ts'

test.beforeEach(() => test.slow())

test('an operator finds users, disables three ticked on the list after confirming; the audit log has three rows', async ({ page }) => {
  const prefix = uniqueName('bulk')
  const names = ['a', 'b', 'c', 'd'].map((suffix) => `${prefix}${suffix}`)
  for (const name of names) await admin('user', 'create', '--username', name, '--email', `${name}@example.com`, '--password', `pw-${name}-secret`)
  const operator = await signInAsOperator(page)

  await page.goto('/admin/users')
  await page.getByLabel('用户名、邮箱或 ID').fill(prefix)
  await page.getByRole('button', { name: '搜索' }).click()
  await expect(page).toHaveURL(new RegExp(`q=${prefix}`))
  const rows = page.getByTestId('admin-user-row')
  await expect(rows).toHaveCount(4)

  // Nothing ticked: refused with a reason, nothing changed.
  await page.getByTestId('bulk-disable').locator('summary').click()
  await page.getByRole('alertdialog').getByRole('button', { name: '停用用户' }).click()
  await expect(page.getByText('请先勾选至少一行')).toBeVisible()
  await expect(page.locator('[data-testid="admin-user-row"][data-status="disabled"]')).toHaveCount(0)

  for (const name of names.slice(0, 3)) await page.getByLabel(`选择“${name}”`).check()
  // The first click only asks.
  await page.getByTestId('bulk-disable').locator('summary').click()
  await expect(page.getByRole('alertdialog')).toContainText('停用所选用户？')
  await expect(page.locator('[data-testid="admin-user-row"][data-status="disabled"]')).toHaveCount(0)
  await page.getByRole('alertdialog').getByRole('button', { name: '停用用户' }).click()
  await expect(page.getByText('已停用 3 个用户')).toBeVisible()
  await expect(page.locator('[data-testid="admin-user-row"][data-status="disabled"]')).toHaveCount(3)
  await expect(rows.filter({ hasText: names[3]! })).toHaveAttribute('data-status', 'active')

  // The state filter, in the URL like the search.
  await page.getByLabel('状态').selectOption('disabled')
  await page.getByRole('button', { name: '搜索' }).click()
  await expect(page).toHaveURL(/status=disabled/)
  await expect(rows).toHaveCount(3)

  await page.goto(`/admin/audit?actor=${operator.username}&action=user.disable`)
  await expect(page.getByTestId('audit-row')).toHaveCount(3)
})

test('a package unlisted in the console leaves /pricing and the code form; archived, it leaves the default list', async ({ page }) => {
  // After PERSONAL in the code form's list, so no spec running meanwhile finds it chosen there by default.
  const code = uniqueName('ZE2E').toUpperCase()
  const name = `Plan ${code}`
  // Dear, so it never becomes the best value other specs' pricing pages compare with.
  await admin('package', 'create', '--code', code, '--name', name, '--kind', 'personal', '--points-limit', '1000', '--price', '999900')
  await page.goto('/pricing')
  await expect(page.getByRole('heading', { name })).toBeVisible()

  await signInAsOperator(page)
  await page.goto('/admin/packages')
  await page.getByRole('link', { name: `编辑 ${code}` }).click()
  const listing = page.getByTestId('package-listing-form')
  await listing.getByLabel('上架状态').selectOption('unlisted')
  await listing.getByRole('button', { name: '更改' }).click()
  await expect(page.getByText(`套餐 ${code} 已下架`)).toBeVisible()
  await expect(page.getByTestId('package-listing').first()).toHaveAttribute('data-listing', 'unlisted')

  await page.goto('/pricing')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name })).toHaveCount(0)
  await page.goto('/admin/codes')
  await expect(page.getByTestId('generate-codes').locator(`option[value="${code}"]`)).toHaveCount(0)

  await page.goto('/admin/packages?listing=unlisted')
  await expect(page.locator(`[data-testid="package-row"][data-code="${code}"]`)).toHaveCount(1)
  await page.getByRole('link', { name: `编辑 ${code}` }).click()
  await page.getByTestId('package-listing-form').getByLabel('上架状态').selectOption('archived')
  await page.getByTestId('package-listing-form').getByRole('button', { name: '更改' }).click()
  await expect(page.getByText(`套餐 ${code} 已归档`)).toBeVisible()
  await page.goto('/admin/packages')
  await expect(page.getByTestId('package-row').first()).toBeVisible()
  await expect(page.locator(`[data-testid="package-row"][data-code="${code}"]`)).toHaveCount(0)
  await page.getByLabel('上架状态').selectOption('archived')
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page.locator(`[data-testid="package-row"][data-code="${code}"]`)).toHaveCount(1)
})

test('a batch of codes made in the console downloads as CSV, the same codes as shown', async ({ page }) => {
  await signInAsOperator(page)
  await page.goto('/admin/codes')
  await page.getByLabel('套餐').selectOption('PERSONAL')
  await page.getByLabel('数量').fill('3')
  await page.getByRole('button', { name: '生成', exact: true }).click()
  const shown = page.getByTestId('generated-codes')
  await expect(shown).toContainText('已生成 3 个兑换码')
  const codes = (await shown.locator('textarea').inputValue()).split('\n')
  // Twice: the download replays the batch, it never makes another.
  for (let i = 0; i < 2; i++) {
    const [download] = await Promise.all([page.waitForEvent('download'), shown.getByRole('button', { name: '下载 CSV' }).click()])
    expect(download.suggestedFilename()).toMatch(/^redeem-codes-\d+\.csv$/)
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n')
    expect(csv[0]).toBe('code,batch_id,package,expires_days')
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(codes)
  }
})
