/**
 * No mixed languages, with JavaScript on and off: a reader in English or Japanese sees the seeded
 * package and the points-reset ticket the relay opened only in their language, on every screen
 * that shows them (docs/decisions/006-texts-and-languages.md). The user's state is made through the relay's API, so
 * the screens are all this spec reads.
 */
import type { Page } from '@playwright/test'
import { admin, createUser, expect, relayApi, serveFakeModel, spendThroughRelay, test, type TestUser } from './fixtures.ts'

test.beforeEach(() => test.slow())

let served: Awaited<ReturnType<typeof serveFakeModel>>
let model: string

test.beforeAll(async () => {
  served = await serveFakeModel('e2e-lang-model-')
  model = served.model
})
test.afterAll(() => served?.close())

/**
 * A user holding the personal package who used some of it (a reset of a full balance is refused),
 * with a points-reset request: a ticket the relay writes.
 */
async function userWithPackageAndResetTicket(): Promise<TestUser> {
  const user = await createUser()
  const { access_token: token } = await relayApi('/api/user/login', { username: user.username, password: user.password })
  const [code] = (await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1')).split('\n')
  await relayApi('/api/user/redeem-code', { redeem_code: code!.trim() }, token)
  await spendThroughRelay(token!, model)
  await relayApi('/api/user/points/reset-ticket', { reason: 'misoperation', description: 'A script looped overnight' }, token)
  return user
}

/** The login form by its fields' names, whatever the language. */
async function signIn(page: Page, user: TestUser) {
  await page.goto('/auth/login')
  await page.locator('input[name="username"]').fill(user.username)
  await page.locator('input[name="password"]').fill(user.password)
  await page.locator('main form button[type="submit"]').click()
  await expect(page).toHaveURL(/\/dashboard$/)
}

const texts = {
  en: { name: 'Personal', description: 'For one developer, 100 points every hour', ticket: 'Points reset request', reason: 'Consumed by mistake' },
  ja: { name: 'パーソナル', description: '個人の開発者向け、毎時 100 ポイント補充', ticket: 'ポイントリセットの申請', reason: '誤操作による消費' },
}
/** What each of the three languages calls them: on an English or Japanese screen, only its own may appear. */
const everyLanguage = ['个人版', 'Personal', 'パーソナル', '积分重置申请', 'Points reset request', 'ポイントリセットの申請', '误操作消耗']

for (const [lang, expected] of Object.entries(texts)) {
  test.describe(`read in ${lang}`, () => {
    test.use({ locale: lang === 'en' ? 'en-US' : 'ja-JP' })

    test('the package and the relay’s ticket are named in the reader’s language only', async ({ page }) => {
      const user = await userWithPackageAndResetTicket()
      const others = everyLanguage.filter((text) => text !== expected.name && text !== expected.ticket)
      const onlyOurs = async () => {
        const text = await page.locator('main').innerText()
        for (const other of others) expect(text, `${page.url()} shows "${other}"`).not.toContain(other)
      }
      await signIn(page, user)

      await expect(page.getByTestId('stat-status')).toContainText(expected.name)
      await onlyOurs()

      await page.goto('/subscription')
      await expect(page.getByTestId('current-package')).toHaveText(expected.name)
      await expect(page.locator('main')).toContainText(expected.description)
      await expect(page.getByTestId('subscription-history')).toContainText(expected.name)
      await onlyOurs()

      await page.goto('/points')
      await expect(page.getByTestId('points-package-name')).toHaveText(expected.name)
      await onlyOurs()

      await page.goto('/tickets')
      await expect(page.getByRole('link', { name: expected.ticket })).toBeVisible()
      await onlyOurs()
      await page.getByRole('link', { name: expected.ticket }).click()
      await expect(page.locator('main')).toContainText(`${expected.reason}`)
      await expect(page.locator('main')).toContainText('A script looped overnight')
      await onlyOurs()
    })
  })
}
