/** Tickets: the whole life of a ticket, with JavaScript on and off. */
import type { Page } from '@playwright/test'
import { admin, createUser, expect, signIn, test, type TestUser } from './fixtures.ts'

async function signedIn(page: Page): Promise<TestUser> {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  return user
}

/** Opens a ticket through the form and returns its number, from the ticket page it lands on. */
async function openTicket(page: Page, title: string, content = 'Claude Code 连接一直超时。'): Promise<string> {
  await page.goto('/tickets/create')
  await page.getByText('咨询', { exact: true }).click()
  await page.getByLabel('标题').fill(title)
  await page.getByLabel('问题描述').fill(content)
  await page.getByRole('button', { name: '提交工单' }).click()
  await expect(page).toHaveURL(/\/tickets\/\d+$/)
  return (await page.getByTestId('ticket-number').textContent())!.trim()
}

const main = (page: Page) => page.locator('main')

test('create a ticket, see it listed, open it, reply, close it and reopen it', async ({ page }) => {
  await signedIn(page)
  await page.getByRole('link', { name: '工单' }).filter({ visible: true }).first().click()
  await expect(page.getByTestId('tickets-empty')).toContainText('还没有工单')

  await main(page).getByRole('link', { name: '新建工单' }).first().click()
  await expect(page.getByText('我们会在 1–2 个工作日内处理您的工单')).toBeVisible()
  // docs/product.md: nothing filled in → the form says what a ticket needs, and keeps what was typed.
  await page.getByLabel('标题').fill('只填了标题')
  await page.getByRole('button', { name: '提交工单' }).click()
  await expect(page.getByText('请填写所有必填项：提交工单需要选择类型，并填写标题和问题描述')).toBeVisible()
  await expect(page.getByLabel('标题')).toHaveValue('只填了标题')

  const number = await openTicket(page, '连接超时', '在上海电信网络下连接超时。')
  expect(number).toMatch(/^T\d{10}$/)
  await expect(page.getByText(`工单 ${number} 已提交，我们会在 1–2 个工作日内处理`)).toBeVisible()
  await expect(page.getByTestId('ticket-title')).toHaveText('连接超时')
  await expect(main(page).locator('[data-status=pending]').first()).toHaveText('待人工审核')
  await expect(page.getByTestId('conversation')).toContainText('在上海电信网络下连接超时。')

  await page.goto('/tickets')
  const row = page.getByTestId('ticket-row').filter({ hasText: number })
  await expect(row).toContainText('连接超时')
  await expect(row).toContainText('咨询')
  await expect(row).toContainText('待人工审核')
  await row.getByRole('link', { name: '连接超时' }).click()
  await expect(page).toHaveURL(/\/tickets\/\d+$/)

  await page.getByLabel('补充说明').fill('用手机热点可以连上。')
  await page.getByRole('button', { name: '发送回复' }).click()
  await expect(page.getByText('回复已发送')).toBeVisible()
  await expect(page.getByTestId('conversation').locator('[data-author=user]')).toHaveCount(2)
  await expect(page.getByTestId('conversation')).toContainText('用手机热点可以连上。')
  await expect(page.getByLabel('补充说明')).toHaveValue('')

  await main(page).getByRole('button', { name: '关闭', exact: true }).click()
  await expect(page.getByText('工单已关闭', { exact: true })).toBeVisible()
  await expect(page.getByTestId('ticket-info')).toContainText('已关闭')
  await expect(page.getByTestId('reply-closed')).toContainText('工单已关闭。如问题仍未解决，请重新打开后继续回复。')

  await main(page).getByRole('button', { name: '重新打开' }).first().click()
  await expect(page.getByText('工单已重新打开')).toBeVisible()
  await expect(page.getByTestId('ticket-info')).toContainText('待人工审核')

  // The list's own buttons, and its status filter.
  await page.goto('/tickets')
  await page.getByTestId('ticket-row').filter({ hasText: number }).getByRole('button', { name: '关闭' }).click()
  await expect(page.getByText('工单已关闭', { exact: true })).toBeVisible()
  await page.getByRole('link', { name: '已关闭' }).click()
  await expect(page).toHaveURL(/status=closed/)
  await expect(page.getByTestId('ticket-row').filter({ hasText: number })).toContainText('已关闭')
  await page.getByRole('link', { name: '进行中' }).click()
  await expect(page.getByTestId('tickets-empty')).toContainText('没有符合该状态的工单')
})

test('an operator reply made with the CLI appears in the conversation, with assignee and tags', async ({ page }) => {
  // Four operator CLI processes, each opening the database.
  test.slow()
  await signedIn(page)
  const number = await openTicket(page, '积分异常')
  await expect(page.getByTestId('awaiting-reply')).toBeVisible()
  const agent = await createUser('admin')
  await admin('ticket', 'assign', number, '--to', agent.username)
  await admin('ticket', 'tag', number, '--tags', '积分,夜间')
  await admin('ticket', 'reply', number, '--message', '已为您核实，正在处理。', '--status', 'processing')

  await page.reload()
  const reply = page.getByTestId('conversation').locator('[data-author=admin]')
  await expect(reply).toContainText('已为您核实，正在处理。')
  await expect(reply).toContainText('客服回复')
  await expect(reply).toContainText(agent.username)
  await expect(page.getByTestId('awaiting-reply')).toHaveCount(0)
  const info = page.getByTestId('ticket-info')
  await expect(info).toContainText('处理中')
  await expect(info).toContainText(agent.username)
  await expect(info).toContainText('积分')
  await expect(info).toContainText('夜间')
})

test('HTML and script in a title and description render as text', async ({ page, jsEnabled }) => {
  await signedIn(page)
  const title = '<b>bold</b><script>window.__pwned = 1</script>'
  const content = '<img src=x onerror="window.__pwned = 2"> 正文'
  const number = await openTicket(page, title, content)
  await expect(page.getByTestId('ticket-title')).toHaveText(title)
  await expect(page.getByTestId('ticket-title').locator('b, script')).toHaveCount(0)
  await expect(page.getByTestId('conversation')).toContainText(content)
  await expect(page.getByTestId('conversation').locator('img')).toHaveCount(0)
  await page.goto('/tickets')
  await expect(page.getByTestId('ticket-row').filter({ hasText: number })).toContainText(title)
  if (jsEnabled) expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
})

test("a missing id and someone else's ticket both show the not-found state", async ({ page, browser }) => {
  await signedIn(page)
  await openTicket(page, '我的工单')
  const mine = page.url()

  await page.goto('/tickets/123')
  await expect(page.getByTestId('ticket-not-found')).toContainText('找不到该工单')
  await page.goto('/tickets/not-an-id')
  await expect(page.getByTestId('ticket-not-found')).toBeVisible()

  const other = await browser.newPage()
  await signedIn(other)
  await other.goto(mine)
  await expect(other.getByTestId('ticket-not-found')).toContainText('该工单不存在，或不属于您的账户。')
  await expect(other.getByText('我的工单')).toHaveCount(0)
  await other.close()
})
