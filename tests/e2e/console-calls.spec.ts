/**
 * The operators' call log (docs/console.md, "Calls"), with JavaScript on and off: a user's call is
 * refused by the relay, and the request id its refusal ends with finds the call at /admin/calls;
 * its page names the user, the reason and that no provider was asked; the CSV holds the same
 * filter's rows; and the user sees the same call with its reason in their own /usage.
 */
import { readFile } from 'node:fs/promises'
import { e2eEnv } from './env.ts'
import { createUser, expect, relayApi, signIn, signInAsOperator, signOut, test, uniqueName } from './fixtures.ts'

// Operator commands start a process each.
test.beforeEach(() => test.slow())

test('a refused call found by its request id, by the operator and by its user', async ({ page }) => {
  const user = await createUser()
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  const { key } = await relayApi('/api/user/api-keys', { name: 'laptop' }, token)
  // No price for this model: the relay refuses the call itself, and records it.
  const model = uniqueName('e2e-unpriced-')
  const refused = await fetch(`${e2eEnv.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] }),
  })
  expect(refused.status).toBeGreaterThanOrEqual(400)
  const message = ((await refused.json()) as { error: { message: string } }).error.message
  // What a user would quote: the end of the refusal's message.
  const requestId = message.match(/\(request id (\d+)\)$/)?.[1]
  expect(requestId).toBe(refused.headers.get('x-relay-request-id'))
  // The refusal's row is written beside the answer, not before it.
  await expect
    .poll(async () => {
      const reply = await fetch(`${e2eEnv.baseUrl}/api/user/usage/calls`, { headers: { authorization: `Bearer ${token}` } })
      return ((await reply.json()) as { data: { items: unknown[] } }).data.items.length
    })
    .toBe(1)

  await signInAsOperator(page)
  await page.getByTestId('nav-admin').last().click()
  await page.getByTestId('admin-nav').last().getByRole('link', { name: '调用记录' }).click()
  await expect(page).toHaveURL(/\/admin\/calls$/)

  // A request id that is not one is refused with its message, and what was typed stays.
  await page.getByLabel('请求 ID').fill('abc')
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page.getByText('请输入数字 ID')).toBeVisible()
  await expect(page.getByLabel('请求 ID')).toHaveValue('abc')

  await page.getByLabel('请求 ID').fill(requestId!)
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page).toHaveURL(new RegExp(`request=${requestId}`))
  const rows = page.getByTestId('admin-calls-row')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText(user.username)
  await expect(rows.first()).toContainText(model)
  await expect(rows.first()).toContainText('已拒绝')
  await expect(rows.first()).toContainText('此模型没有定价')

  // The CSV holds the filter's one row.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('admin-calls-export').click()])
  expect(download.suggestedFilename()).toMatch(/^calls-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n')
  expect(csv).toHaveLength(2)
  expect(csv[1]).toContain(`${requestId},laptop,${model},`)
  expect(csv[1]).toContain(',unknown_model,')
  expect(csv[1]).toContain(user.username)

  // Its page: who, why, and that no provider was asked.
  await rows.first().getByTestId('admin-calls-call-link').click()
  await expect(page).toHaveURL(new RegExp(`/admin/calls/${requestId}$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`调用 ${requestId}`)
  await expect(page.getByTestId('admin-call')).toContainText('此模型没有定价')
  await expect(page.getByTestId('call-provider')).toContainText('没有请求任何上游')
  await expect(page.getByTestId('call-entries')).toContainText('这次调用没有积分变动')
  await page.getByTestId('call-user').click()
  await expect(page).toHaveURL(/\/admin\/users\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(user.username)

  // An id that names no call is the console's 404.
  expect((await page.goto('/admin/calls/1'))?.status()).toBe(404)

  // The user finds the same call, with its reason, in their own log.
  await signOut(page)
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/usage')
  const own = page.getByTestId('usage-row').filter({ hasText: requestId! })
  await expect(own).toContainText('此模型没有定价')
  await own.getByTestId('usage-call-link').click()
  await expect(page).toHaveURL(new RegExp(`/usage/${requestId}$`))
  await expect(page.getByText('此模型没有定价')).toBeVisible()
})
