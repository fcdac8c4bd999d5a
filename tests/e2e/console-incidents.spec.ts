/**
 * Status-page incidents from the console, with JavaScript on and off: an admin posts one (a blank
 * title is refused and the typed text kept), corrects it and resolves it; `/status` shows each
 * state to everyone.
 */
import { expect, signInAsOperator, test, uniqueName } from './fixtures.ts'

test('an admin posts, corrects and resolves an incident, and the status page shows it', async ({ page }) => {
  await signInAsOperator(page)
  await page.goto('/admin/incidents')
  const create = page.getByTestId('create-incident')
  await create.getByLabel('说明（可选）').fill('部分请求变慢，我们正在处理。')
  await create.getByRole('button', { name: '发布' }).click()
  await expect(create.getByText('请填写此项')).toBeVisible()
  await expect(create.getByLabel('说明（可选）')).toHaveValue('部分请求变慢，我们正在处理。')

  const title = uniqueName('上游变慢 ')
  await create.getByLabel('标题').fill(title)
  await create.getByRole('button', { name: '发布' }).click()
  await expect(page.getByText('事件已发布')).toBeVisible()
  const card = page.getByTestId('incident').filter({ hasText: title })
  await expect(card).toHaveAttribute('data-state', 'open')
  await page.goto('/status')
  await expect(page.getByText(title)).toBeVisible()

  await page.goto('/admin/incidents')
  await card.getByText('修改标题和说明').click()
  await card.getByLabel('标题').fill(`${title}（已定位）`)
  await card.getByRole('button', { name: '保存' }).click()
  await expect(page.getByText('事件已修改')).toBeVisible()
  const corrected = page.getByTestId('incident').filter({ hasText: `${title}（已定位）` })
  await corrected.getByRole('button', { name: '标记为已解决' }).click()
  await expect(page.getByText('事件已标记为解决')).toBeVisible()
  await expect(corrected).toHaveAttribute('data-state', 'resolved')
  await page.goto('/status')
  await expect(page.getByText(`${title}（已定位）`)).toBeVisible()
})
