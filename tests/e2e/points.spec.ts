/**
 * Packages and points in the portal, with JavaScript on and off: an operator-made redeem code is
 * validated and confirmed (a second one behind the replace warning), and the dashboard,
 * subscription and points screens show the package and balance; a team invitation link opens the
 * join flow and joining shows the team and its members; a top-up code adds to the package in
 * force; a team owner caps a member's points.
 */
import type { Page } from '@playwright/test'
import { admin, createUser, expect, signIn, test, uniqueName, type TestUser } from './fixtures.ts'

// Each operator command starts a process: these tests take longer than the default minute.
test.beforeEach(() => test.slow())

let packageList: Promise<string> | undefined

/** A package of a fresh database (`package list`: a header, then one package per line, code and kind first). */
async function defaultPackage(kind: 'personal' | 'team'): Promise<string> {
  packageList ??= admin('package', 'list')
  const line = (await packageList).split('\n').find((l) => new RegExp(`^\\S+\\s+${kind}\\s`).test(l))
  if (!line) throw new Error(`no ${kind} package in a fresh database`)
  return line.trim().split(/\s+/)[0]!
}

/** Signs in and waits for the dashboard, so the next navigation carries the session. */
async function signedIn(page: Page, user: TestUser) {
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
}

async function redeemCodes(packageCode: string, count: number): Promise<string[]> {
  return (await admin('codes', 'create', '--package', packageCode, '--count', String(count))).split('\n').map((code) => code.trim())
}

test('redeem a code, see the package everywhere, then replace it behind the warning', async ({ page, context, jsEnabled, baseURL }) => {
  const user = await createUser()
  const packageCode = await defaultPackage('personal')
  const [first, second] = await redeemCodes(packageCode, 2)

  await signedIn(page, user)
  await page.goto('/subscription')
  await expect(page.getByText('您还没有套餐')).toBeVisible()

  // Step one checks the code; what was typed stays when it is wrong.
  await page.getByRole('textbox', { name: '兑换码' }).fill('NOPE-NOPE-NOPE')
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await expect(page.getByText('兑换码无效或已过期')).toBeVisible()
  await expect(page.getByRole('textbox', { name: '兑换码' })).toHaveValue('NOPE-NOPE-NOPE')

  await page.getByRole('textbox', { name: '兑换码' }).fill(first!.toLowerCase())
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
  // The chart: chart.js draws it once hydrated; without JavaScript the HTML bars are the chart.
  await expect(page.getByTestId(jsEnabled ? 'chart-canvas' : 'chart-bars')).toBeVisible()
  // The invite link: a copy button with JavaScript, a selectable readonly field without.
  const inviteLink = page.getByRole('textbox', { name: '邀请链接' })
  await expect(inviteLink).toHaveAttribute('readonly', '')
  await expect(inviteLink).toHaveValue(new RegExp(`^${baseURL}/auth/register\\?invite=\\w+$`))
  const copy = page.getByTestId('invite-card').getByRole('button', { name: '复制' })
  if (jsEnabled) {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await copy.click()
    await expect(page.getByText('邀请链接已复制')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await inviteLink.inputValue())
  } else {
    await expect(copy).toHaveCount(0)
  }

  await page.goto('/points')
  await expect(page.getByTestId('points-balance')).toHaveText(balance)
  await expect(page.getByTestId('points-package-name')).toHaveText(packageName)
  await expect(page.getByTestId('points-history')).toContainText('获得')

  // A second code while the first package is active: the warning comes before confirming.
  await page.goto('/subscription')
  const historyRows = page.getByTestId('subscription-history').locator('tbody tr')
  const rowsBefore = await historyRows.count()
  await page.getByRole('textbox', { name: '兑换码' }).fill(second!)
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await expect(page.getByTestId('replace-warning')).toContainText('将立即停用')
  await page.getByRole('button', { name: '替换当前套餐并兑换' }).click()
  await expect(page.getByText(`兑换成功：已开通「${packageName}」`)).toBeVisible()
  await expect.poll(() => historyRows.count()).toBeGreaterThan(rowsBefore)
})

test('a top-up code adds its points to the package in force without replacing it', async ({ page }) => {
  const user = await createUser()
  const topUp = uniqueName('TOPUP').toUpperCase().slice(0, 32)
  await admin('package', 'create', '--code', topUp, '--name', '加油包', '--kind', 'topup', '--points-limit', '5000', '--price', '1900')
  const [plan] = await redeemCodes(await defaultPackage('personal'), 1)
  const [code] = await redeemCodes(topUp, 1)

  await signedIn(page, user)
  await page.goto('/subscription')
  await page.getByRole('textbox', { name: '兑换码' }).fill(plan!)
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await page.getByRole('button', { name: '确认兑换', exact: true }).click()
  const packageName = (await page.getByTestId('current-package').textContent())!.trim()

  await page.getByRole('textbox', { name: '兑换码' }).fill(code!)
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await expect(page.getByTestId('replace-warning')).toHaveCount(0)
  await expect(page.getByTestId('topup-target')).toContainText(`立即为「${packageName}」增加 5,000 点`)
  await page.getByRole('button', { name: '确认兑换', exact: true }).click()
  await expect(page.getByText('加油成功：当前套餐增加了 5,000 点')).toBeVisible()
  await expect(page.getByTestId('current-package')).toHaveText(packageName)

  await page.goto('/points')
  await expect(page.getByTestId('points-history')).toContainText('加油包')
})

test("a team owner caps a member's points; a bad number keeps the input and says why", async ({ page }) => {
  const owner = await createUser()
  await admin('team', 'create', '--name', uniqueName('team'), '--package', await defaultPackage('team'), '--owner', owner.username)
  await signedIn(page, owner)
  await page.goto('/subscription')
  const caps = page.getByTestId(`caps-${owner.username}`)
  await expect(caps).toContainText('未设限额')
  await caps.locator('summary').click()
  await caps.getByLabel('每小时积分').fill('0')
  await caps.getByRole('button', { name: '保存限额' }).click()
  await expect(page.getByTestId(`caps-${owner.username}`).getByText('数值过小')).toBeVisible()
  await expect(page.getByTestId(`caps-${owner.username}`).getByLabel('每小时积分')).toHaveValue('0')

  await page.getByTestId(`caps-${owner.username}`).getByLabel('每小时积分').fill('100')
  await page.getByTestId(`caps-${owner.username}`).getByLabel('每日积分').fill('800')
  await page.getByTestId(`caps-${owner.username}`).getByRole('button', { name: '保存限额' }).click()
  await expect(page.getByText('限额已保存')).toBeVisible()
  const row = page.getByTestId('team-members').locator('tr', { hasText: owner.username })
  await expect(row.getByTestId('member-caps')).toContainText('0 / 100 本小时')
  await expect(row.getByTestId('member-caps')).toContainText('0 / 800 今日')
  await expect(page.getByTestId(`caps-${owner.username}`)).toContainText('已设限额')
})

test('a team code that is not base64 says so and keeps the input', async ({ page }) => {
  await signedIn(page, await createUser())
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

  await signedIn(page, member)
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

test('a points reset request needs a reason and a description; at the package limit it says there is nothing to reset', async ({ page }) => {
  const user = await createUser()
  const [code] = await redeemCodes(await defaultPackage('personal'), 1)
  await signedIn(page, user)
  await page.goto('/subscription')
  await page.getByRole('textbox', { name: '兑换码' }).fill(code!)
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await page.getByRole('button', { name: '确认兑换', exact: true }).click()
  await expect(page.getByText('兑换成功')).toBeVisible()
  await page.goto('/points')
  await page.getByLabel('问题描述').fill('a runaway script used my points')
  await page.getByRole('button', { name: '提交申请' }).click()
  await expect(page.getByText('请选择原因')).toBeVisible()
  await expect(page.getByLabel('问题描述')).toHaveValue('a runaway script used my points')

  // A fresh package is at its limit: a reset would add nothing (tests/e2e/points-reset.spec.ts has the rest).
  await page.getByLabel('原因').selectOption('misoperation')
  await page.getByRole('button', { name: '提交申请' }).click()
  await expect(page.getByText('积分余额已达到或超过套餐上限，重置不会增加积分，无需申请')).toBeVisible()
  await expect(page).toHaveURL(/\/points$/)
})
