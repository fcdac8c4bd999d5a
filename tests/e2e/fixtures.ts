/**
 * Helpers for end-to-end specs. Import `test` and `expect` from here, not from @playwright/test.
 *
 * - `admin(...args)`: the operator CLI (`npm run admin -- …`) against the run's database.
 * - `createUser()`: a fresh account made by the operator CLI (spares the per-address limits on
 *   registration, which only the registration spec exercises).
 * - `latestCode(email)`: the 6-digit code of the newest mail the SMTP sink received for `email`.
 * - `signIn(page, user)`: the login form, filled and submitted.
 * - `jsEnabled`: whether this project runs with JavaScript (`js`) or without (`no-js`).
 * - Every page fails its test on a `console.error` or an uncaught error in the page, unless the
 *   test announced it with `allowConsoleError(/pattern/)` (a page it opens on purpose to see a
 *   404, say).
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { test as base, expect, type Page } from '@playwright/test'
import { e2eEnv } from './env.ts'

const run = promisify(execFile)

export async function admin(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'relay/cli.ts', ...args], {
    env: { ...process.env, ...e2eEnv.serverEnv, LOG_LEVEL: 'error' },
  })
  return stdout.trim()
}

export function uniqueName(prefix = 'u'): string {
  return `${prefix}${randomBytes(4).toString('hex')}`
}

export interface TestUser {
  username: string
  email: string
  password: string
}

export async function createUser(type: 'normal' | 'vip' | 'team' | 'admin' = 'normal'): Promise<TestUser> {
  const username = uniqueName()
  const user = { username, email: `${username}@example.com`, password: `pw-${randomBytes(6).toString('hex')}` }
  await admin('user', 'create', '--username', user.username, '--email', user.email, '--password', user.password, '--type', type)
  return user
}

interface SinkMessage {
  to: string[]
  subject: string
  text: string
}

/** Waits for a mail to `email` newer than `after` mails and returns the code in it. */
export async function latestCode(email: string, { after = 0 } = {}): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(`${e2eEnv.mailUrl}/messages?to=${encodeURIComponent(email)}`)
    const messages = (await response.json()) as SinkMessage[]
    const code = messages.length > after ? /\b(\d{6})\b/.exec(messages.at(-1)!.text)?.[1] : undefined
    if (code) return code
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`no code mailed to ${email}`)
}

export async function mailCount(email: string): Promise<number> {
  const response = await fetch(`${e2eEnv.mailUrl}/messages?to=${encodeURIComponent(email)}`)
  return ((await response.json()) as SinkMessage[]).length
}

export async function signIn(page: Page, user: TestUser, { remember = false, path = '/auth/login' } = {}) {
  if (!page.url().includes('/auth/login')) await page.goto(path)
  await page.getByLabel(/用户名或邮箱|Username or e-mail/).fill(user.username)
  await page.getByLabel(/^密码$|^Password$/).fill(user.password)
  if (remember) await page.getByLabel(/记住我|Remember me/).check()
  await page.getByRole('button', { name: /^登录$|^Sign in$/ }).click()
}

export const test = base.extend<{ jsEnabled: boolean; allowConsoleError: (pattern: RegExp) => void; consoleErrors: string[] }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  jsEnabled: async ({}, use, testInfo) => {
    await use(testInfo.project.name !== 'no-js')
  },
  // eslint-disable-next-line no-empty-pattern
  consoleErrors: async ({}, use) => {
    await use([])
  },
  allowConsoleError: async ({ consoleErrors }, use) => {
    const allowed: RegExp[] = []
    await use((pattern) => allowed.push(pattern))
    const unexpected = consoleErrors.filter((message) => !allowed.some((pattern) => pattern.test(message)))
    expect(unexpected, 'console errors and uncaught page errors').toEqual([])
  },
  page: async ({ page, consoleErrors, allowConsoleError }, use) => {
    void allowConsoleError
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`)
    })
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`))
    await use(page)
  },
})

export { expect }
