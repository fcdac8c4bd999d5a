/**
 * The points screen after real use, with JavaScript on and off (docs/decisions/023-packages-teams-codes-resets.md): the usage
 * bar counts what was used even when the balance is above the package limit, a reset request
 * at or above the limit says there is nothing to reset, and an approved one says what it added.
 */
import { admin, createUser, expect, relayApi, signIn, serveFakeModel, spendThroughRelay, test, type TestUser } from './fixtures.ts'

let served: Awaited<ReturnType<typeof serveFakeModel>>
let model: string

test.beforeAll(async () => {
  served = await serveFakeModel('e2e-reset-model-')
  model = served.model
})
test.afterAll(() => served?.close())

// Operator commands start a process each.
test.beforeEach(() => test.slow())

/** A user on the default personal package (2,400 points) who made one call costing 32 points. */
async function userWhoUsed32(baseURL: string): Promise<TestUser> {
  const user = await createUser()
  const [code] = (await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1')).split('\n')
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  await relayApi('/api/user/redeem-code', { redeem_code: code!.trim() }, token)
  await spendThroughRelay(token!, model)
  // Settled: the call's hold is closed and its 32 points are counted as used.
  await expect
    .poll(async () => {
      const reply = await fetch(`${baseURL}/api/user/points`, { headers: { authorization: `Bearer ${token}` } })
      const { data } = (await reply.json()) as { data: { used_points: number; frozen_points: number } }
      return [data.used_points, data.frozen_points]
    })
    .toEqual([32, 0])
  return user
}

test('above the limit the bar still shows the use, and a reset request says there is nothing to reset', async ({ page, baseURL }) => {
  const user = await userWhoUsed32(baseURL!)
  // An operator's grant puts the balance far above the 2,400 limit: 2,368 + 12,632 = 15,000.
  await admin('points', 'grant', '--user', user.username, '--amount', '12632', '--reason', 'goodwill')
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/points')
  await expect(page.getByTestId('points-balance')).toHaveText('15,000')
  await expect(page.getByTestId('points-used')).toContainText('32')
  // 32 of the period's 15,032 points: the bar measured against the limit read "0%".
  await expect(page.getByTestId('points-progress')).toHaveText('已使用本期积分的 0.2%（32 / 15,032）')

  await expect(page.getByTestId('reset-at-limit')).toContainText('已达到或超过套餐上限')
  await page.getByLabel('原因').selectOption('misoperation')
  await page.getByLabel('问题描述').fill('a runaway script used my points')
  await page.getByRole('button', { name: '提交申请' }).click()
  await expect(page.getByText('积分余额已达到或超过套餐上限，重置不会增加积分，无需申请')).toBeVisible()
  await expect(page.getByLabel('问题描述')).toHaveValue('a runaway script used my points')
  await page.goto('/tickets')
  await expect(page.getByTestId('tickets-empty')).toBeVisible()
})

test('below the limit a reset request is approved and says how many points it added', async ({ page, baseURL }) => {
  const user = await userWhoUsed32(baseURL!)
  await signIn(page, user)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/points')
  await expect(page.getByTestId('points-progress')).toHaveText('已使用本期积分的 1.3%（32 / 2,400）')
  await expect(page.getByTestId('reset-at-limit')).toHaveCount(0)
  await page.getByLabel('原因').selectOption('misoperation')
  await page.getByLabel('问题描述').fill('a runaway script used my points')
  await page.getByRole('button', { name: '提交申请' }).click()
  await expect(page.getByText(/^积分重置申请已自动通过：补充了 32 积分，余额已回到套餐上限（工单 T\d+）$/)).toBeVisible()
  await expect(page.getByTestId('points-balance')).toHaveText('2,400')
})
