/**
 * Every creating form acts once, with JavaScript on and off (docs/decisions/005-forms.md): reloading the
 * page a form answered (which re-posts it without JavaScript), submitting twice, and two posts of
 * the same rendered form 50 ms apart all create one thing, and the repeat shows the first result.
 * Also: the redeem form forgets its old error after a team-code attempt.
 */
import type { APIResponse, Locator, Page } from '@playwright/test'
import { admin, createUser, expect, mailCount, signIn, test, uniqueName, type TestUser } from './fixtures.ts'
import { elapse } from '../fixtures/time.ts'

test.beforeEach(({ page }) => {
  // A hydration mismatch (a form key rendered differently on the server and in the browser) or
  // any script error fails the test. The browser's own lines about 4xx answers are not errors here.
  page.on('pageerror', (error) => {
    throw error
  })
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      throw new Error(`console error: ${message.text()}`)
    }
  })
})

async function signedIn(page: Page): Promise<TestUser> {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  return user
}

/** What the browser would post for `form`: its named fields as rendered, plus the submitter's `extra`. */
async function fieldsOf(form: Locator, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const fields: Record<string, string> = {}
  for (const input of await form.locator('input[name], textarea[name], select[name]').all()) {
    const name = (await input.getAttribute('name'))!
    const type = await input.getAttribute('type')
    if ((type === 'radio' || type === 'checkbox') && !(await input.isChecked())) continue
    if (type === 'submit') continue
    fields[name] = await input.inputValue()
  }
  return { ...fields, ...extra }
}

/** The same rendered form posted twice, the second 50 ms after the first, in the page's session. */
async function postTwice(page: Page, path: string, fields: Record<string, string>): Promise<[APIResponse, APIResponse]> {
  const origin = new URL(page.url()).origin
  const post = () => page.request.post(path, { form: fields, headers: { origin }, maxRedirects: 0 })
  const first = post()
  await elapse(50)
  return Promise.all([first, post()])
}

const keyIn = (html: string) => /sk-relay-[0-9A-Za-z]{40}/.exec(html)?.[0]

test('an API key is created once: reload, double submit and two posts 50 ms apart show the same key again', async ({ page, jsEnabled }) => {
  await signedIn(page)
  await page.goto('/api-keys')
  const form = page.locator('form').filter({ has: page.getByLabel('密钥名称') })
  const rows = page.getByTestId('key-row')

  await page.getByLabel('密钥名称').fill('once')
  if (jsEnabled) {
    // Two submits of the form 50 ms apart, as a double click that slips past the disabled button.
    await form.evaluate((element: HTMLFormElement) => {
      const submitter = element.querySelector<HTMLButtonElement>('button[type=submit]')!
      element.requestSubmit(submitter)
      setTimeout(() => element.requestSubmit(submitter), 50)
    })
    await expect(page.getByTestId('created-key')).toBeVisible()
    await expect(rows).toHaveCount(1)
    const key = await page.getByLabel('您的新密钥').inputValue()
    // A reload is a fresh visit here (the form went by fetch): the key is not shown again.
    await page.reload()
    await expect(page.getByTestId('created-key')).toHaveCount(0)
    await expect(rows).toHaveCount(1)
    await expect(rows.getByText(`sk-relay-********${key.slice(-4)}`)).toBeVisible()
  } else {
    await page.getByRole('button', { name: '创建密钥' }).click()
    const key = await page.getByLabel('您的新密钥').inputValue()
    expect(key).toMatch(/^sk-relay-/)
    // Without JavaScript a reload posts the form again: the same key is shown, none is added.
    await page.reload()
    await expect(page.getByLabel('您的新密钥')).toHaveValue(key)
    await expect(rows).toHaveCount(1)
  }

  // Two posts of one rendered form: one key, shown in both answers.
  await page.goto('/api-keys')
  await page.getByLabel('密钥名称').fill('twice')
  const [first, second] = await postTwice(page, '/api-keys', await fieldsOf(form, { intent: 'create' }))
  expect([first.status(), second.status()]).toEqual([200, 200])
  const shown = keyIn(await first.text())
  expect(shown).toBeDefined()
  expect(keyIn(await second.text())).toBe(shown)
  await page.goto('/api-keys')
  await expect(rows).toHaveCount(2)
  await expect(rows.filter({ hasText: 'twice' })).toHaveCount(1)
})

test('a ticket and a reply are made once by two posts 50 ms apart; both answers lead to the one ticket', async ({ page }) => {
  await signedIn(page)
  await page.goto('/tickets/create')
  await page.getByText('咨询', { exact: true }).click()
  const title = `Once ${uniqueName()}`
  await page.getByLabel('标题').fill(title)
  await page.getByLabel('问题描述').fill('Posted twice, opened once.')
  const [first, second] = await postTwice(page, '/tickets/create', await fieldsOf(page.locator('main form')))
  expect([first.status(), second.status()]).toEqual([302, 302])
  const location = first.headers().location!
  expect(location).toMatch(/^\/tickets\/\d+$/)
  expect(second.headers().location).toBe(location)

  await page.goto('/tickets')
  await expect(page.getByTestId('ticket-row').filter({ hasText: title })).toHaveCount(1)

  await page.goto(location)
  await page.getByLabel('补充说明').fill('One reply only.')
  const replyForm = page.locator('form').filter({ has: page.getByLabel('补充说明') })
  const replies = await postTwice(page, location, await fieldsOf(replyForm, { intent: 'reply' }))
  expect(replies.map((r) => r.status())).toEqual([302, 302])
  await page.goto(location)
  await expect(page.getByText('One reply only.', { exact: true })).toHaveCount(1)
})

test('redeeming and joining a team are confirmed once by two posts 50 ms apart; both answers succeed', async ({ page }) => {
  await signedIn(page)
  const packages = await admin('package', 'list')
  const codeOf = (kind: string) => packages.split('\n').find((l) => new RegExp(`^\\S+\\s+${kind}\\s`).test(l))!.trim().split(/\s+/)[0]!
  const [code] = (await admin('codes', 'create', '--package', codeOf('personal'), '--count', '1')).split('\n')

  await page.goto('/subscription')
  await page.getByRole('textbox', { name: '兑换码' }).fill(code!.trim())
  await page.getByRole('button', { name: '验证兑换码' }).click()
  const confirm = page.getByTestId('redeem').locator('form')
  await expect(page.getByRole('button', { name: '确认兑换', exact: true })).toBeVisible()
  // Without the key the second would be refused: the code is used up by the first.
  const redeemed = await postTwice(page, '/subscription', await fieldsOf(confirm, { intent: 'redeem' }))
  expect(redeemed.map((r) => [r.status(), r.headers().location])).toEqual([
    [302, '/subscription'],
    [302, '/subscription'],
  ])
  await page.goto('/subscription')
  await expect(page.getByTestId('subscription-history').getByText('开通')).toHaveCount(1)

  const owner = await createUser()
  const created = await admin('team', 'create', '--name', uniqueName('team'), '--package', codeOf('team'), '--owner', owner.username)
  const link = /https?:\/\/\S+team_code=\S+/.exec(created)![0]
  await page.goto(new URL(link).pathname + new URL(link).search)
  await expect(page.getByRole('button', { name: '确认加入团队' })).toBeVisible()
  const joined = await postTwice(page, '/subscription', await fieldsOf(page.getByTestId('join-team').locator('form'), { intent: 'join-team' }))
  // Without the key the second would be refused: the user is in the team already.
  expect(joined.map((r) => r.status())).toEqual([302, 302])
  await page.goto('/subscription')
  await expect(page.getByTestId('team-members').getByText(owner.username)).toBeVisible()
})

test('a password-reset code is mailed once under a reload and two posts 50 ms apart', async ({ page, jsEnabled }) => {
  const user = await createUser()
  await page.goto('/auth/forgot-password')
  await page.getByLabel('邮箱', { exact: true }).fill(user.email)
  const before = await mailCount(user.email)
  await page.getByRole('button', { name: '发送验证码' }).click()
  await expect(page.getByText('验证码已发送')).toBeVisible()
  await expect.poll(() => mailCount(user.email)).toBe(before + 1)
  if (!jsEnabled) {
    // The reload posts the form again; the code already mailed stays the only one.
    await page.reload()
    await expect(page.getByText('验证码已发送')).toBeVisible()
  }

  // Another address: one code a minute per address is the relay's limit.
  const other = await createUser()
  await page.goto('/auth/forgot-password')
  await page.getByLabel('邮箱', { exact: true }).fill(other.email)
  const sent = await postTwice(page, '/auth/forgot-password', await fieldsOf(page.locator('main form'), { intent: 'send-code' }))
  // One code a minute per address: had the copy reached the relay as a second send, it would
  // have been refused (429), not answered 200 as the first was.
  expect(sent.map((r) => r.status())).toEqual([200, 200])
  await expect.poll(() => mailCount(other.email)).toBe(1)
  expect(await mailCount(user.email)).toBe(before + 1)
})

test('after a team-code attempt the redeem form no longer shows its old error', async ({ page }) => {
  await signedIn(page)
  await page.goto('/subscription')
  await page.getByRole('textbox', { name: '兑换码' }).fill('NOPE-NOPE-NOPE')
  await page.getByRole('button', { name: '验证兑换码' }).click()
  await expect(page.getByText('兑换码无效或已过期')).toBeVisible()

  // Well formed, but no such team: the relay answers, and only the join form shows it.
  await page.getByLabel('团队邀请码').fill(Buffer.from('4242424242:nosuchteamsecret').toString('base64'))
  await page.getByRole('button', { name: '验证邀请码' }).click()
  await expect(page.getByText('团队邀请码无效或已过期')).toBeVisible()
  await expect(page.getByText('兑换码无效或已过期')).toHaveCount(0)
})
