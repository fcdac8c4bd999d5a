/** An invite link registers a friend who then counts in the inviter's stats; JS on and off. */
import { e2eEnv } from './env.ts'
import { createUser, expect, latestCode, mailCount, signIn, signOut, test, uniqueName } from './fixtures.ts'

test('register a second user through the invite link and see the invite in the stats', async ({ page }) => {
  const inviter = await createUser()
  await signIn(page, inviter)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/referral')
  await expect(page.getByTestId('stat-total')).toContainText('0')
  await expect(page.getByTestId('records-empty')).toBeVisible()
  await expect(page.getByTestId('reward-rule')).toContainText('10,000 积分')
  const inviteCode = (await page.getByTestId('invite-code').textContent())!.trim()
  const inviteUrl = await page.getByRole('textbox', { name: '邀请链接' }).inputValue()
  expect(inviteUrl).toBe(`${e2eEnv.baseUrl}/auth/register?invite=${inviteCode}`)

  await signOut(page)

  // The friend follows the link: the invite code is filled in.
  const username = uniqueName('friend')
  const email = `${username}@example.com`
  await page.goto(inviteUrl)
  await expect(page.getByLabel(/邀请码/)).toHaveValue(inviteCode)
  await page.getByLabel('用户名', { exact: true }).fill(username)
  await page.getByLabel('邮箱', { exact: true }).fill(email)
  const before = await mailCount(email)
  await page.getByRole('button', { name: '发送验证码' }).click()
  await expect(page.getByText('验证码已发送，请查收邮件')).toBeVisible()
  await expect(page.getByLabel(/邀请码/)).toHaveValue(inviteCode)
  await page.getByLabel('邮箱验证码').fill(await latestCode(email, { after: before }))
  await page.getByLabel('密码', { exact: true }).fill('correct horse battery')
  await page.getByLabel('确认密码').fill('correct horse battery')
  await page.getByLabel(/我已阅读并同意/).check()
  await page.getByRole('button', { name: '注册', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await signOut(page)

  await signIn(page, inviter)
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/referral')
  await expect(page.getByTestId('stat-total')).toContainText('1')
  await expect(page.getByTestId('stat-valid')).toContainText('0')
  const record = page.getByTestId('record-row')
  await expect(record).toHaveCount(1)
  // The friend's name is masked for privacy; the invite waits for a paid purchase.
  await expect(record).toContainText(`${username.slice(0, 2)}***${username.slice(-2)}`)
  await expect(record).not.toContainText(username)
  await expect(record).toContainText('待奖励')

  await page.getByTestId('refresh').click()
  await expect(page).toHaveURL(/\/referral$/)
  await expect(page.getByTestId('record-row')).toHaveCount(1)
})
