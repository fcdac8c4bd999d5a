/**
 * `/auth/device-code` is public: anyone sees the code form; verifying asks a visitor to sign in
 * and brings them back with the code they typed, with JavaScript on and off.
 */
import { createUser, expect, signIn, test } from './fixtures.ts'

test('a visitor sees the code form, is asked to sign in on verify, and comes back with the code kept', async ({ page }) => {
  const user = await createUser()
  await page.goto('/auth/device-code')
  await expect(page).toHaveURL(/\/auth\/device-code$/)
  await expect(page.getByTestId('device-sign-in-hint')).toBeVisible()

  // A malformed code is refused on the spot, before any sign-in.
  await page.getByLabel('设备码').fill('abc')
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page.getByText('设备码为 8 位字母或数字')).toBeVisible()
  await expect(page).toHaveURL(/\/auth\/device-code$/)

  // Typed as people do: lower case, no hyphen.
  await page.getByLabel('设备码').fill('wxyz2345')
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fauth%2Fdevice-code%3Fcode%3DWXYZ-2345$/)
  await expect(page.getByText('请先登录，登录后继续授权设备 WXYZ-2345')).toBeVisible()

  await signIn(page, user)
  await expect(page).toHaveURL(/\/auth\/device-code\?code=WXYZ-2345$/)
  await expect(page.getByLabel('设备码')).toHaveValue('WXYZ-2345')
  await expect(page.getByTestId('device-sign-in-hint')).toHaveCount(0)
  // Signed in, verifying asks the relay: no such code here.
  await page.getByRole('button', { name: '验证' }).click()
  await expect(page.getByText('设备码无效')).toBeVisible()
})
