/**
 * The public price list and status page, with JavaScript on and off: reachable from every public
 * page's footer, readable without an account (docs/decisions/120-figures-from-hourly-aggregates.md, decisions/080-prices.md).
 */
import { admin, expect, test } from './fixtures.ts'

test('lists the packages and model prices on /pricing, reached from the footer', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('contentinfo').getByRole('link', { name: '价格' }).click()
  await expect(page).toHaveURL(/\/pricing$/)
  await expect(page.getByRole('heading', { level: 1, name: '价格' })).toBeVisible()
  await expect(page.getByTestId('package-PERSONAL')).toContainText('¥99.00')
  await expect(page.getByTestId('package-PERSONAL')).toContainText('2,400 积分')
  const opus = page.getByTestId('price-claude-opus-5-5')
  await expect(opus).toContainText('$4 / $20')
  await expect(opus).toContainText('%')
})

test('shows the incidents the operator posts on /status', async ({ page }) => {
  const title = `Slow answers ${Date.now()}`
  const id = await admin('incident', 'add', '--title', title, '--body', 'We are on it.')
  await page.goto('/')
  await page.getByRole('contentinfo').getByRole('link', { name: '服务状态' }).click()
  await expect(page).toHaveURL(/\/status$/)
  await expect(page.getByRole('heading', { level: 1, name: '服务状态' })).toBeVisible()
  await expect(page.getByTestId(`incident-${id}`)).toContainText(`处理中${title}`)
  await admin('incident', 'resolve', id)
  await page.reload()
  await expect(page.getByTestId(`incident-${id}`)).toContainText('已解决')
})
