/**
 * Issue 3 acceptance (portal half), with JavaScript on and off: an operator-made redeem code is
 * validated and confirmed (a second one behind the replace warning), and the dashboard,
 * subscription and points screens show the package and balance; a team invitation link opens the
 * join flow and joining shows the team and its members.
 */
import { admin, createUser, expect, signIn, test, uniqueName } from './fixtures.ts'

/** The default packages of a fresh database (`package list`: one package per line, its code first). */
async function defaultPackage(kind: 'personal' | 'team'): Promise<string> {
  const line = (await admin('package', 'list')).split('\n').find((l) => new RegExp(`\\b${kind}\\b`).test(l))
  if (!line) throw new Error(`no ${kind} package in a fresh database`)
  return line.trim().split(/\s+/)[0]!
}

async function redeemCode(packageCode: string): Promise<string> {
  return (await admin('codes', 'create', '--package', packageCode, '--count', '1')).trim()
}

test('redeem a code, see the package everywhere, then replace it behind the warning', async ({ page }) => {
  const user = await createUser()
  const packageCode = await defaultPackage('personal')
  const [first, second] = [await redeemCode(packageCode), await redeemCode(packageCode)]

  await signIn(page, user)
  await page.goto('/subscription')
  await expect(page.getByText('您还没有套餐')).toBeVisible()

  // Step one checks the code; what was typed stays when it is wrong.
  await page.getByLabel('兑换码', { exact: true }).fill('NOPE-NOPE-NOPE')
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await expect(page.getByText('兑换码无效或已过期')).toBeVisible()
  await expect(page.getByLabel('兑换码', { exact: true })).toHaveValue('NOPE-NOPE-NOPE')

  await page.getByLabel('兑换码', { exact: true }).fill(first.toLowerCase())
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await expect(page.getByRole('heading', { name: '确认兑换' })).toBeVisible()
  const packageName = (await page.getByTestId('package-name').textContent())!.trim()
  await expect(page.getByTestId('replace-warning')).toHaveCount(0)
  await page.getByRole('button', { name: '确认兑换', exact: true }).click()

  await expect(page.getByText(`兑换成功：已开通「${packageName}」`)).toBeVisible()
  await expect(page.getByTestId('current-package')).toHaveText(packageName)
  await expect(page.getByTestId('subscription-history')).toContainText('开通')

  await page.goto('/dashboard')
  await expect(page.getByTestId('stat-status')).toContainText('正常')
  await expect(page.getByTestId('stat-status')).toContainText(packageName)
  const balance = (await page.getByTestId('stat-balance').locator('dd').first().textContent())!.trim()
  expect(Number(balance.replace(/\D/g, ''))).toBeGreaterThan(0)

  await page.goto('/points')
  await expect(page.getByTestId('points-balance')).toHaveText(balance)
  await expect(page.getByTestId('points-package-name')).toHaveText(packageName)
  await expect(page.getByTestId('points-history')).toContainText('获得')

  // A second code while the first package is active: the warning comes before confirming.
  await page.goto('/subscription')
  const historyRows = page.getByTestId('subscription-history').locator('tbody tr')
  const rowsBefore = await historyRows.count()
  await page.getByLabel('兑换码', { exact: true }).fill(second)
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await expect(page.getByTestId('replace-warning')).toContainText('将立即停用')
  await page.getByRole('button', { name: '替换当前套餐并兑换' }).click()
  await expect(page.getByText(`兑换成功：已开通「${packageName}」`)).toBeVisible()
  await expect.poll(() => historyRows.count()).toBeGreaterThan(rowsBefore)
})

test('a team code that is not base64 says so and keeps the input', async ({ page }) => {
  await signIn(page, await createUser())
  await page.goto('/subscription')
  await page.getByLabel('团队邀请码').fill('not base64!')
  await page.getByRole('button', { name: '验证邀请码' }).click()
  await expect(page.getByText('无效的团队代码格式')).toBeVisible()
  await expect(page.getByLabel('团队邀请码')).toHaveValue('not base64!')
})

test('a team invitation link opens the join flow; joining shows the team and its members', async ({ page }) => {
  const [owner, member] = [await createUser(), await createUser()]
  const teamName = uniqueName('team')
  const created = await admin('team', 'create', '--name', teamName, '--package', await defaultPackage('team'), '--owner', owner.username)
  const link = /https?:\/\/\S+team_code=\S+/.exec(created)?.[0]
  expect(link).toBeDefined()

  await signIn(page, member)
  await page.goto(link!)
  await expect(page.getByRole('heading', { name: `加入「${teamName}」` })).toBeVisible()
  await expect(page.getByTestId('team-comparison')).toBeVisible()
  await expect(page.getByTestId('join-warning')).toContainText('不可撤销')
  await page.getByRole('button', { name: '确认加入团队' }).click()

  await expect(page.getByText(`欢迎加入团队「${teamName}」！`)).toBeVisible()
  await expect(page.getByTestId('team-name')).toHaveText(teamName)
  const members = page.getByTestId('team-members')
  await expect(members).toContainText(owner.username)
  await expect(members.locator('tr', { hasText: member.username })).toContainText('我')
  await expect(page.getByTestId('join-team')).toContainText('您已是团队')
  await page.goto('/dashboard')
  await expect(page.getByTestId('user-type')).toHaveText('团队用户')
})

test('a points reset request needs a reason and a description, then becomes a ticket', async ({ page }) => {
  const user = await createUser()
  await admin('codes', 'create', '--package', await defaultPackage('personal'), '--count', '1').then(async (code) => {
    await signIn(page, user)
    await page.goto('/subscription')
    await page.getByLabel('兑换码', { exact: true }).fill(code.trim())
    await page.getByRole('button', { name: '验证兑换码' }).click()
    await page.getByRole('button', { name: '确认兑换', exact: true }).click()
  })
  await page.goto('/points')
  await page.getByLabel('问题描述').fill('a runaway script used my points')
  await page.getByRole('button', { name: '提交申请' }).click()
  await expect(page.getByText('请选择原因')).toBeVisible()
  await expect(page.getByLabel('问题描述')).toHaveValue('a runaway script used my points')

  await page.getByLabel('原因').selectOption('misoperation')
  await page.getByRole('button', { name: '提交申请' }).click()
  await expect(page.getByText(/积分重置申请已(提交|自动通过)/)).toBeVisible()
  await expect(page).toHaveURL(/\/points$/)
})
