/**
 * The portal half of the metered relay, with JavaScript on and off: a call made through the metered
 * relay of the production server — as Claude Code makes it, with an API key from the portal —
 * is charged, and shows in the dashboard's usage chart and the points history with its model.
 */
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { admin, createUser, expect, relayApi, signIn, test, uniqueName } from './fixtures.ts'

let provider: FakeProvider

test.beforeAll(async () => {
  provider = await startFakeProvider()
})
test.afterAll(() => provider?.close())

// Operator commands start a process each.
test.beforeEach(() => test.slow())


test('a call through the relay is charged and shows in the usage chart and the points history', async ({ page, baseURL }) => {
  // The fake provider reports 120 input and 40 output tokens: 12 + 20 points at these rates.
  const model = uniqueName('e2e-model-')
  // A key per run: the same API, address and key again would be refused as a duplicate provider.
  await admin('provider', 'add', '--kind', 'anthropic', '--base-url', provider.url, '--key', `e2e-provider-key-${model}`, '--models', model)
  await admin('model-cost', 'set', '--model', model, '--kind', 'variable', '--input', '100000', '--output', '500000')
  const user = await createUser()
  const [code] = (await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1')).split('\n')
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  await relayApi('/api/user/redeem-code', { redeem_code: code!.trim() }, token)
  const { key } = await relayApi('/api/user/api-keys', { name: 'claude code' }, token)

  const call = await fetch(`${baseURL}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
  })
  expect(call.status).toBe(200)
  expect(call.headers.get('content-type')).toContain('text/event-stream')
  expect(await call.text()).toContain('event: message_stop')

  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  // Today is the chart's last day; its table (read by screen readers) carries the numbers.
  await expect(page.getByRole('table').filter({ has: page.locator('caption') }).locator('tr').last()).toContainText('32')

  await page.goto('/points')
  const history = page.getByTestId('points-history')
  await expect(history).toContainText(model)
  await expect(history.locator('tr', { hasText: '消耗' }).filter({ hasText: model })).toContainText('32')
})
