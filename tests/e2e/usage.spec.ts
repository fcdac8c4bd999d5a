/**
 * Key limits and the usage log, with JavaScript on and off: the owner sets a key's limits on the
 * API keys page (a refused value keeps what was typed), a call over the limit is refused by the
 * relay and shows as refused in the log, the log filters, its CSV export downloads, and the
 * points history shows the answered call as one line linking to its rows. A key's last day
 * cannot be before today; the log fits a 1280 px screen in English.
 */
import { readFile } from 'node:fs/promises'
import { parseRelayJson } from '../../relay/contract/json.ts'
import { dateOf } from '../../app/utils/utc8-days.ts'
import { startFakeProvider } from '../fixtures/fake-provider.ts'
import { e2eEnv } from './env.ts'
import { admin, createUser, expect, relayApi, serveFakeModel, signIn, test, uniqueName } from './fixtures.ts'

let served: Awaited<ReturnType<typeof serveFakeModel>>

test.beforeAll(async () => {
  served = await serveFakeModel('e2e-usage-')
})
test.afterAll(() => served?.close())

// Operator commands start a process each.
test.beforeEach(() => test.slow())

const call = (key: string, model: string) =>
  fetch(`${e2eEnv.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] }),
  })

test('set a key limit, see a refused call in the log, filter it and export CSV', async ({ page }) => {
  const { model } = served
  const user = await createUser()
  const [code] = (await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1')).split('\n')
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  await relayApi('/api/user/redeem-code', { redeem_code: code!.trim() }, token)
  const key = (await relayApi('/api/user/api-keys', { name: 'laptop' }, token)).key!

  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.getByRole('link', { name: /使用统计/ }).click()
  await expect(page).toHaveURL(/\/usage$/)
  await expect(page.getByTestId('usage-empty')).toBeVisible()

  // A refused value comes back with its message, and what was typed is still there.
  await page.goto('/api-keys')
  const limits = page.getByTestId('key-limits')
  await limits.getByText('设置限制').click()
  await limits.getByRole('spinbutton', { name: '每分钟请求数' }).fill('0')
  await limits.getByRole('spinbutton', { name: '每日积分额度' }).fill('1000')
  await limits.getByRole('textbox', { name: '允许的模型' }).fill(`${model} claude-*`)
  await limits.getByRole('textbox', { name: '允许的 IP 地址' }).fill('127.0.0.1 office')
  await limits.getByRole('button', { name: '保存限制' }).click()
  await expect(limits.getByText('数值过小')).toBeVisible()
  await expect(limits.getByText('请输入 IP 地址或 CIDR 网段，如 203.0.113.7 或 2001:db8::/32')).toBeVisible()
  await expect(limits.getByRole('textbox', { name: '允许的 IP 地址' })).toHaveValue('127.0.0.1 office')
  await expect(limits.getByRole('spinbutton', { name: '每分钟请求数' })).toHaveValue('0')
  await expect(limits.getByRole('spinbutton', { name: '每日积分额度' })).toHaveValue('1000')
  await expect(limits.getByRole('textbox', { name: '允许的模型' })).toHaveValue(`${model} claude-*`)

  await limits.getByRole('spinbutton', { name: '每分钟请求数' }).fill('1')
  // This test's calls come from loopback: the key is kept to it.
  await limits.getByRole('textbox', { name: '允许的 IP 地址' }).fill('127.0.0.0/8 ::1')
  await limits.getByRole('button', { name: '保存限制' }).click()
  await expect(page.getByText('密钥限制已保存')).toBeVisible()
  await expect(limits.getByText(`仅限：${model}, claude-*`)).toBeVisible()
  await expect(limits.getByTestId('key-addresses')).toHaveText('仅限来源：127.0.0.0/8, ::1')
  await expect(limits.getByTestId('use-rpm')).toContainText('0 / 1')

  // One call a minute: the second is refused by the relay.
  const first = await call(key, model)
  expect(first.status).toBe(200)
  await first.text()
  const second = await call(key, model)
  expect(second.status).toBe(429)
  expect(second.headers.get('retry-after')).toMatch(/^\d+$/)
  await second.text()
  await expect
    .poll(async () => {
      const reply = await fetch(`${e2eEnv.baseUrl}/api/user/usage/calls`, { headers: { authorization: `Bearer ${token}` } })
      return ((await reply.json()) as { data: { items: unknown[] } }).data.items.length
    })
    .toBe(2)

  // The key's use against its limits: the answered call's 32 points today.
  await page.goto('/api-keys')
  await expect(page.getByTestId('key-limits').getByTestId('use-day')).toContainText('32 / 1,000')
  // No total quota: unlimited, with what was used beside it rather than as "32 / …".
  await expect(page.getByTestId('key-limits').getByTestId('use-total').locator('dd')).toHaveText(/^不限\s*已用 32$/)

  await page.goto('/points')
  await page.getByTestId('points-call-log').click()
  await expect(page).toHaveURL(/\/usage$/)
  const rows = page.getByTestId('usage-row')
  await expect(rows).toHaveCount(2)
  const refused = rows.filter({ hasText: '已拒绝' })
  await expect(refused).toContainText('超出密钥的频率或并发限制')
  await expect(refused).toContainText('laptop')
  await expect(refused).toContainText(model)
  await expect(rows.filter({ hasText: '已应答' })).toContainText('32')

  // Filter by outcome: the form is a GET, so the filter is in the address.
  await page.getByLabel('结果').selectOption('refused')
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page).toHaveURL(/outcome=refused/)
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('已拒绝')

  // The export holds the filtered range.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('usage-export').click()])
  expect(download.suggestedFilename()).toMatch(/^usage-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n')
  expect(csv).toHaveLength(2)
  expect(csv[0]).toContain('time_utc,request_id,key,model,api,outcome')
  expect(csv[1]).toContain(`,laptop,${model},anthropic,refused,429,key_rate_limited,`)

  // The points history: the call is one line of its net charge; its rows are on the call's page.
  await page.goto('/points')
  const history = page.getByTestId('points-history')
  await expect(history.locator('tr', { hasText: '冻结' })).toHaveCount(0)
  await expect(history.locator('tr', { hasText: '消耗' }).filter({ hasText: model })).toContainText('-32')
  await history.getByTestId('history-call').click()
  await expect(page).toHaveURL(/\/usage\/\d+$/)
  const entries = page.getByTestId('call-entries')
  await expect(entries.locator('tbody tr')).toHaveCount(3)
  await expect(entries.locator('tbody tr').nth(0)).toContainText('冻结')
  await expect(entries.locator('tbody tr').nth(1)).toContainText('解冻')
  await expect(entries.locator('tbody tr').nth(2)).toContainText('-32')

  // How it was charged, line by line; the price changed since leaves the call as it was charged.
  const charge = page.getByTestId('call-charge')
  await expect(charge.getByTestId('charge-line')).toHaveCount(2)
  await expect(charge.locator('[data-item="input"]')).toHaveText('输入120100,000 / 百万令牌12')
  await expect(charge.locator('[data-item="output"]')).toHaveText('输出40500,000 / 百万令牌20')
  await expect(charge.getByTestId('charge-total')).toHaveText('合计（向上取整）32')
  await admin('model-cost', 'set', '--model', model, '--kind', 'variable', '--input', '900000', '--output', '900000')
  await page.reload()
  await expect(charge.locator('[data-item="input"]')).toHaveText('输入120100,000 / 百万令牌12')
  await expect(charge.getByTestId('charge-total')).toHaveText('合计（向上取整）32')
})

test('a bad date range is refused with its message and the typed dates kept', async ({ page }) => {
  const user = await createUser()
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/usage')
  await page.getByLabel('开始日期').fill('2026-11-20')
  await page.getByLabel('结束日期').fill('2026-11-10')
  await page.getByRole('button', { name: '筛选' }).click()
  await expect(page.getByText('结束日期不能早于开始日期')).toBeVisible()
  await expect(page.getByLabel('开始日期')).toHaveValue('2026-11-20')
  await expect(page.getByLabel('结束日期')).toHaveValue('2026-11-10')
})

test('a key\'s last day before today is refused beside the field with the typed day kept; today is accepted', async ({ page }) => {
  const user = await createUser()
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  await relayApi('/api/user/api-keys', { name: 'laptop' }, token)
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/api-keys')
  const limits = page.getByTestId('key-limits')
  await limits.getByText('设置限制').click()
  // Days are UTC+8, the relay's.
  const yesterday = dateOf(Date.now() - 86_400_000)
  await limits.getByLabel('有效期至').fill(yesterday)
  await limits.getByRole('button', { name: '保存限制' }).click()
  await expect(limits.getByText('最后可用日期不能早于今天')).toBeVisible()
  await expect(limits.getByLabel('有效期至')).toHaveValue(yesterday)

  const today = dateOf(Date.now())
  await limits.getByLabel('有效期至').fill(today)
  await limits.getByRole('button', { name: '保存限制' }).click()
  await expect(limits.getByText(`有效期至 ${today}`)).toBeVisible()
  await expect(limits.getByText('已启用')).toBeVisible()
})

test.describe('read in English on a 1280 px screen', () => {
  test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } })

  test('the log fits the page without scrolling sideways, with long names and large figures', async ({ page }) => {
    // The widest rows a user makes: every token count in the hundreds of thousands, cache reads and
    // writes, a long model and key name, a refusal with its reason.
    const provider = await startFakeProvider()
    provider.behaviour = { kind: 'answer', usage: { input_tokens: 456_789, output_tokens: 98_765, cache_read_tokens: 1_234_567, cache_write_tokens: 345_678 } }
    try {
      const model = uniqueName('claude-sonnet-4-5-20250929-')
      await admin('provider', 'add', '--kind', 'anthropic', '--base-url', provider.url, '--key', 'e2e-provider-key-0000', '--models', model)
      await admin('model-cost', 'set', '--model', model, '--kind', 'variable', '--input', '100', '--output', '500')
      const user = await createUser()
      const [code] = (await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1')).split('\n')
      const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
      await relayApi('/api/user/redeem-code', { redeem_code: code!.trim() }, token)
      // The key's id is a 64-bit number on the wire: read as the portal reads it, not as a double.
      const creation = await fetch(`${e2eEnv.baseUrl}/api/user/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Build server (staging, eu-west)' }),
      })
      const created = (parseRelayJson(await creation.text()) as { data: { id: string; key: string } }).data
      const limits = { enabled: true, expires_timestamp: null, points_quota: null, daily_points_quota: null, allowed_models: null, rpm_limit: 1, concurrency_limit: null, allowed_ips: null }
      const set = await fetch(`${e2eEnv.baseUrl}/api/user/api-keys/${created.id}/limits`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(limits),
      })
      expect(set.status).toBe(200)
      for (const status of [200, 429]) {
        const reply = await call(created.key, model)
        expect(reply.status).toBe(status)
        await reply.text()
      }
      await expect
        .poll(async () => {
          const reply = await fetch(`${e2eEnv.baseUrl}/api/user/usage/calls`, { headers: { authorization: `Bearer ${token}` } })
          return ((await reply.json()) as { data: { items: unknown[] } }).data.items.length
        })
        .toBe(2)

      await signIn(page, user)
      await expect(page).toHaveURL(/\/dashboard$/)
      await page.goto('/usage')
      await expect(page.getByTestId('usage-row')).toHaveCount(2)
      await expect(page.getByTestId('usage-table')).toContainText('1,234,567')
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }))
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
    } finally {
      await provider.close()
    }
  })
})
