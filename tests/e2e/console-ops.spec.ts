/**
 * The console's operations screens (docs/decisions/120-figures-from-hourly-aggregates.md, decisions/115-operator-console.md), with JavaScript on and off: an admin
 * adds a provider (a loopback fake), tests, edits and toggles it, sets and edits a model price,
 * assigns a ticket and filters the queue by assignee; the audit log shows each action; the
 * overview renders its figures for each period.
 */
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { createUser, expect, relayApi, serveFakeModel, signIn, test, uniqueName } from './fixtures.ts'

test.beforeEach(() => test.slow())

let provider: FakeProvider
test.beforeAll(async () => {
  provider = await startFakeProvider()
})
test.afterAll(() => provider.close())

test('an admin adds, tests, edits and toggles a provider and sets a price; the audit log shows each', async ({ page }) => {
  const operator = await createUser('admin')
  await signIn(page, operator)
  await expect(page).toHaveURL(/\/dashboard$/)

  await page.goto('/admin/providers')
  const model = uniqueName('e2e-model-')
  const add = page.getByTestId('add-provider')
  await add.getByLabel('Base URL').fill(provider.url)
  // A key of its own per run: the same API, address and key again is refused as a duplicate.
  const secret = `${model}-key-0001`
  await add.getByLabel('API 密钥').fill(secret)
  await add.getByLabel('模型', { exact: true }).fill(model)
  await add.getByLabel('优先级').fill('5')
  await add.getByRole('button', { name: '添加上游' }).click()
  await expect(page.getByText('已添加上游')).toBeVisible()
  const card = page.getByTestId('provider-card').filter({ hasText: model })
  await expect(card).toContainText('已启用')
  await expect(card.getByTestId('circuit-state')).toHaveAttribute('data-state', 'closed')
  // Only the key's masked tail is ever shown again.
  await expect(page.getByText(secret)).toHaveCount(0)
  await expect(card).toContainText('…0001')
  const providerId = await card.getAttribute('data-provider')

  await card.getByRole('button', { name: '发送测试调用' }).click()
  await expect(page.getByText(new RegExp(`测试调用成功：${model}，HTTP 200，\\d+ ms`))).toBeVisible()
  await page.getByTestId('provider-card').filter({ hasText: model }).getByLabel('优先级').fill('7')
  await page.getByTestId('provider-card').filter({ hasText: model }).getByLabel('模型映射').fill(`${model}=${model}-20261015`)
  await page.getByTestId('provider-card').filter({ hasText: model }).getByRole('button', { name: '保存' }).click()
  await expect(page.getByText('已保存上游')).toBeVisible()
  await expect(page.getByTestId('provider-card').filter({ hasText: model }).getByLabel('优先级')).toHaveValue('7')
  await expect(page.getByTestId('provider-card').filter({ hasText: model }).getByTestId('provider-mapping')).toHaveText(`${model} → ${model}-20261015`)
  // Disabling asks first (docs/console.md).
  await page.getByTestId('provider-card').filter({ hasText: model }).locator('summary', { hasText: '停用' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: '停用' }).click()
  await expect(page.getByText('已停用上游')).toBeVisible()
  await expect(page.getByTestId('provider-card').filter({ hasText: model })).toContainText('已停用')
  await page.getByTestId('provider-card').filter({ hasText: model }).getByRole('button', { name: '启用' }).click()
  await expect(page.getByText('已启用上游', { exact: true })).toBeVisible()

  // A price for the new model: 20,000 × 100 + 1,000 × 500 per million is 2.5, charged as 3 points a typical call.
  await page.getByRole('link', { name: '模型价格' }).last().click()
  await expect(page).toHaveURL(/\/admin\/pricing$/)
  const form = page.getByTestId('price-form')
  await form.getByLabel('模型或模式').fill(model)
  await form.getByLabel('输入 / 百万 token').fill('100')
  await form.getByLabel('输出 / 百万 token').fill('500')
  await form.getByRole('button', { name: '保存价格' }).click()
  await expect(page.getByText(`已保存价格：${model}`)).toBeVisible()
  const row = page.locator(`[data-testid="price-row"][data-model="${model}"]`)
  await expect(row.getByTestId('typical-points')).toHaveText('3 积分')
  // Saved, the form starts over, with scripts as without (docs/decisions/005-forms.md).
  await expect(form.getByLabel('模型或模式')).toHaveValue('')
  // Edit it into a fixed price, in the edit form: until the link's page arrives, the form on screen is still the one to add.
  await row.getByRole('link', { name: `编辑 ${model}` }).click()
  await expect(page.getByTestId('price-form-card').getByRole('heading', { name: `编辑 ${model}` })).toBeVisible()
  await expect(page.getByTestId('price-form').getByLabel('模型或模式')).toHaveValue(model)
  // Each step checked before the next, so a form still hydrating cannot drop one.
  const kind = page.getByTestId('price-form').getByLabel('计费方式')
  await kind.selectOption('fixed')
  await expect(kind).toHaveValue('fixed')
  const perCall = page.getByTestId('price-form').getByLabel('每次积分')
  await perCall.fill('4')
  await expect(perCall).toHaveValue('4')
  await expect(kind).toHaveValue('fixed')
  await page.getByTestId('price-form').getByRole('button', { name: '保存价格' }).click()
  await expect(page.getByText(`已保存价格：${model}`)).toBeVisible()
  await expect(page.locator(`[data-testid="price-row"][data-model="${model}"]`).getByTestId('typical-points')).toHaveText('4 积分')

  await page.goto(`/admin/audit?actor=${operator.username}`)
  const actions = await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')))
  expect(actions).toEqual(['price.set', 'price.set', 'provider.enable', 'provider.disable', 'provider.update', 'provider.test', 'provider.add'])
  // The update reads as the fields it changed, not as two JSON documents.
  const update = page.locator('[data-testid="audit-row"][data-action="provider.update"]').getByTestId('audit-change')
  await expect(update).toHaveText(`model_map: ∅ → {"from":"${model}","to":"${model}-20261015"}priority: 5 → 7`)
  await page.goto(`/admin/audit?target=${providerId}&action=provider.disable`)
  await expect(page.getByTestId('audit-row')).toHaveCount(1)
})

test('the overview renders its figures for each period and over time, and the queue filters by assignee', async ({ page, jsEnabled }) => {
  const operator = await createUser('admin')
  const owner = await createUser()
  // A provider to choose in the chart's filter, whichever of this file's tests runs first; no call reaches it.
  await (await serveFakeModel('e2e-over-time-')).close()
  const { access_token: token } = await relayApi('/api/user/login', { username: owner.username, password: owner.password })
  await relayApi('/api/user/tickets', { type: 'consultation', title: `Assign ${owner.username}`, content: 'Who helps me?' }, token)

  await signIn(page, operator)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/admin')
  for (const id of ['stat-calls', 'stat-points', 'stat-active', 'stat-errors', 'stat-p50', 'stat-p95']) await expect(page.getByTestId(id)).toBeVisible()
  await expect(page.getByTestId('stat-calls').locator('dd').first()).toHaveText(/^[\d,]+$/)
  await expect(page.getByTestId('tickets-pending')).toHaveText(/^[1-9][\d,]*$/)
  await page.getByTestId('period-switch').getByRole('link', { name: '7 天' }).click()
  await expect(page).toHaveURL(/period=7d/)
  await expect(page.getByTestId('period-switch').getByRole('link', { name: '7 天' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByTestId('by-model')).toBeVisible()

  // Over time: four charts (chart.js with JavaScript, HTML bars without) and a table of the same
  // figures, a row per UTC+8 day of the period, adding up to the period's calls.
  const overTime = page.getByTestId('over-time')
  for (const chart of ['calls', 'points', 'tokens', 'errors']) {
    await expect(overTime.getByTestId(`over-time-${chart}`).getByTestId(jsEnabled ? 'chart-canvas' : 'chart-bars')).toBeVisible()
  }
  await overTime.getByTestId('over-time-table').locator('summary').click()
  const rows = overTime.getByTestId('over-time-table').locator('tbody tr')
  // Seven days of hours reach into an eighth calendar day unless the period starts at midnight.
  await expect(rows.first()).toBeVisible()
  expect([7, 8]).toContain(await rows.count())
  const calls = (await rows.locator('td:nth-child(2)').allTextContents()).reduce((sum, text) => sum + Number(text.replace(/,/g, '')), 0)
  await expect(page.getByTestId('stat-calls').locator('dd').first()).toHaveText(new Intl.NumberFormat('zh-CN').format(calls))
  // One provider's figures, kept across a change of period.
  const providerOption = overTime.getByLabel('上游').locator('option').nth(1)
  const providerId = await providerOption.getAttribute('value')
  await overTime.getByLabel('上游').selectOption(providerId!)
  await overTime.getByRole('button', { name: '查看' }).click()
  await expect(page).toHaveURL(new RegExp(`provider_id=${providerId}`))
  await page.getByTestId('period-switch').getByRole('link', { name: '24 小时' }).click()
  await expect(page).toHaveURL(new RegExp(`period=24h&provider_id=${providerId}`))
  await expect(page.getByTestId('over-time').getByLabel('上游')).toHaveValue(providerId!)
  await page.getByTestId('over-time').getByTestId('over-time-table').locator('summary').click()
  await expect(page.getByTestId('over-time').getByTestId('over-time-table').locator('tbody tr')).toHaveCount(24)

  await page.goto('/admin/tickets')
  await page.getByRole('link', { name: `Assign ${owner.username}` }).click()
  await page.getByTestId('admin-assign').getByLabel('处理人').selectOption({ label: operator.username })
  await page.getByTestId('admin-assign').getByRole('button', { name: '指派' }).click()
  await expect(page.getByText(`已指派给 ${operator.username}`)).toBeVisible()
  await page.goto('/admin/tickets')
  await page.getByLabel('处理人').selectOption({ label: operator.username })
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page).toHaveURL(/assignee=\d+/)
  await expect(page.getByTestId('admin-ticket-row').filter({ hasText: `Assign ${owner.username}` })).toHaveCount(1)
  await page.getByLabel('处理人').selectOption('none')
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page.getByTestId('admin-ticket-row').filter({ hasText: `Assign ${owner.username}` })).toHaveCount(0)
  await page.goto(`/admin/audit?actor=${operator.username}&action=ticket.assign`)
  await expect(page.getByTestId('audit-row')).toHaveCount(1)
})
