/**
 * Mail notifications, announcements and the code-request wait (docs/decisions/125-mail-and-announcements.md), with
 * JavaScript on and off: settings saved by a plain form; the unsubscribe link of a real mail
 * working without a session; an announcement seen and dismissed; the wait after a refused code.
 */
import { e2eEnv } from './env.ts'
import { admin, createUser, expect, relayApi, signIn, test, uniqueName } from './fixtures.ts'
import { elapse } from '../fixtures/time.ts'

// Operator commands start a process each.
test.beforeEach(() => test.slow())

/** `YYYY-MM-DD HH:MM` in UTC, as the CLI takes it. */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')

test('sets a balance threshold and turns a kind of mail off, from the profile', async ({ page }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  await page.getByRole('link', { name: '邮件通知设置' }).click()
  await expect(page).toHaveURL(/\/profile\/notifications$/)
  const form = page.getByTestId('notification-settings')
  await expect(form.getByLabel(/工单有新回复/)).toBeChecked()
  await form.getByLabel('余额提醒阈值（积分）').fill('0')
  await form.getByRole('button', { name: '保存设置' }).click()
  await expect(form.getByText('请输入 1 到 100000000 之间的整数')).toBeVisible()
  await form.getByLabel(/工单有新回复/).uncheck()
  await form.getByLabel('余额提醒阈值（积分）').fill('500')
  await form.getByRole('button', { name: '保存设置' }).click()
  await expect(page.getByText('通知设置已保存')).toBeVisible()
  await page.reload()
  await expect(form.getByLabel(/工单有新回复/)).not.toBeChecked()
  await expect(form.getByLabel(/新设备登录/)).toBeChecked()
  await expect(form.getByLabel('余额提醒阈值（积分）')).toHaveValue('500')
})

test('the link in a notification mail turns that kind off without signing in', async ({ page }) => {
  const user = await createUser()
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  const ticket = await relayApi('/api/user/tickets', { type: 'consultation', title: 'Where is my key', content: 'Please help' }, token)
  await admin('ticket', 'reply', ticket.number!, '--message', 'On the API keys page.')

  let link = ''
  await expect
    .poll(
      async () => {
        const messages = (await (await fetch(`${e2eEnv.mailUrl}/messages?to=${encodeURIComponent(user.email)}`)).json()) as Array<{ subject: string; text: string }>
        link = messages.find((m) => m.subject.includes(ticket.number!))?.text.match(/(http\S+\/unsubscribe\?token=\S+)/)?.[1] ?? ''
        return link
      },
      { timeout: 20_000 },
    )
    .not.toBe('')

  await page.goto(new URL(link).pathname + new URL(link).search)
  const card = page.getByTestId('unsubscribe')
  await expect(card).toContainText('要停止向')
  await expect(card).toContainText('工单有新回复')
  await card.getByRole('button', { name: '停止发送' }).click()
  await expect(card).toContainText('已停止向')
  await page.goto(new URL(link).pathname + new URL(link).search)
  await expect(card).toContainText('已经停止发送')
  await page.goto('/unsubscribe?token=1.ticket_reply.forged')
  await expect(card).toContainText('这个退订链接无效')
})

test('an announcement shows on the dashboard and signed-in pages until the user dismisses it', async ({ page }) => {
  const message = `计划维护 ${uniqueName('m')}`
  await admin('announcement', 'create', '--level', 'warning', '--message', message, '--until', utc(Date.now() + 3_600_000))
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  const banner = page.getByTestId('announcement').filter({ hasText: message })
  // Announcements other tests posted may be in force too: all but the first fold under one line.
  const more = page.getByTestId('announcements-more')
  const unfold = async () => {
    if ((await more.count()) > 0 && !(await banner.isVisible())) await more.locator('summary').click()
  }
  await unfold()
  await expect(banner).toBeVisible()
  await expect(banner).toHaveAttribute('data-level', 'warning')
  await page.goto('/points')
  await unfold()
  await expect(banner).toBeVisible()
  await banner.getByRole('button', { name: '关闭公告' }).click()
  await expect(banner).toHaveCount(0)
  await expect(page).toHaveURL(/\/points$/)
  await page.goto('/dashboard')
  await expect(page.locator('h1')).toBeVisible()
  await expect(banner).toHaveCount(0)
})

test('several announcements show as one banner and a line that unfolds the others', async ({ page }) => {
  const messages = [`维护一 ${uniqueName('f')}`, `维护二 ${uniqueName('f')}`]
  const ids: string[] = []
  for (const message of messages) ids.push((await admin('announcement', 'create', '--level', 'info', '--message', message, '--until', utc(Date.now() + 3_600_000))).trim())
  await signIn(page, await createUser())
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByTestId('announcements').getByTestId('announcement').filter({ visible: true })).toHaveCount(1)
  const more = page.getByTestId('announcements-more')
  await expect(more.locator('summary')).toHaveText(/还有 \d+ 条公告/)
  await more.locator('summary').click()
  for (const message of messages) await expect(page.getByTestId('announcement').filter({ hasText: message })).toBeVisible()
  // Not left showing to the other tests' users.
  for (const id of ids) await admin('announcement', 'remove', id)
})

test('an operator posts and removes an announcement in the console', async ({ page }) => {
  const operator = await createUser('admin')
  const message = `控制台公告 ${uniqueName('c')}`
  await signIn(page, operator)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/admin/announcements')
  const form = page.getByTestId('create-announcement')
  await form.getByLabel('级别').selectOption('critical')
  await form.getByLabel('内容（中文）').fill(message)
  const ends = new Date(Date.now() + 8 * 3_600_000 + 7_200_000).toISOString().slice(0, 16)
  await form.getByLabel('结束时间').fill(ends)
  await form.getByRole('button', { name: '发布' }).click()
  await expect(page.getByText('公告已发布')).toBeVisible()
  const row = page.getByTestId('announcement-row').filter({ hasText: message })
  await expect(row).toHaveAttribute('data-state', 'showing')
  // The list shows the end in the zone the form took it in (UTC+8), whatever the browser's zone.
  await expect(row).toContainText(ends.slice(0, 10).replaceAll('-', '/'))
  await expect(row).toContainText(`GMT+8 ${ends.slice(11, 16)}`)
  await row.getByRole('button', { name: /撤下/ }).click()
  await expect(page.getByText('公告已撤下')).toBeVisible()
  await expect(page.getByTestId('announcement-row').filter({ hasText: message })).toHaveCount(0)
})

test('after a code is sent the button counts the minute down with scripts; without them a press too early says how long to wait', async ({ page, jsEnabled }) => {
  const email = `${uniqueName('w')}@example.com`
  await page.goto('/auth/register')
  await page.getByLabel('邮箱', { exact: true }).fill(email)
  await page.getByTestId('send-code').click()
  await expect(page.getByText('验证码已发送，请查收邮件')).toBeVisible()
  await expect(page.getByLabel('邮箱', { exact: true })).toHaveValue(email)
  const button = page.getByTestId('send-code')
  if (jsEnabled) {
    await expect(button).toBeDisabled()
    await expect(button).toHaveText(/\d+ 秒后可重发/)
    const shown = () => button.textContent().then((text) => Number(text!.match(/(\d+) 秒/)![1]))
    const first = await shown()
    expect(first).toBeGreaterThan(50)
    expect(first).toBeLessThanOrEqual(60)
    await expect.poll(shown, { timeout: 5000 }).toBeLessThan(first)
    // The sent notice is the answer; no warning beside it.
    await expect(page.getByTestId('code-wait')).toHaveCount(0)
    return
  }
  await expect(button).toBeEnabled()
  await expect(button).toHaveText('发送验证码')
  await button.click()
  const notice = page.getByTestId('code-wait')
  await expect(notice).toContainText(/请等待 \d+ 秒后再获取验证码/)
  await expect(page.getByLabel('邮箱', { exact: true })).toHaveValue(email)
  const seconds = Number((await notice.textContent())!.match(/(\d+) 秒/)![1])
  expect(seconds).toBeGreaterThan(50)
  expect(seconds).toBeLessThanOrEqual(60)
  await expect(button).toBeEnabled()
})

test('with scripts, a wait answered before the page hydrated counts from its answer once the page hydrates', async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, 'only scripts count down')
  // A slow link: the page's scripts are held until the wait has run a while, so both presses send the form the plain way.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/hydrate-/, async (route) => {
    await held
    // A page left meanwhile dropped its request.
    await route.continue().catch(() => {})
  })
  const email = `${uniqueName('w')}@example.com`
  await page.goto('/auth/register')
  await page.getByLabel('邮箱', { exact: true }).fill(email)
  await page.getByTestId('send-code').click()
  await expect(page.getByText('验证码已发送，请查收邮件')).toBeVisible()
  const refused = page.waitForResponse((response) => response.request().method() === 'POST' && response.status() === 429)
  await page.getByTestId('send-code').click()
  const answered = Number(/请等待 (\d+) 秒/.exec(await (await refused).text())![1])
  await elapse(2500)
  release()
  // The answer hydrates without a press, and its button counts what is left of the wait, not the whole of it again.
  const button = page.getByTestId('send-code')
  await expect(button).toBeDisabled()
  const shown = Number(/(\d+) 秒后可重发/.exec((await button.textContent())!)![1])
  expect(shown).toBeGreaterThan(0)
  expect(shown).toBeLessThanOrEqual(answered - 2)
})
