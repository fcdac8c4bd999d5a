/**
 * Helpers for end-to-end specs. Import `test` and `expect` from here, not from @playwright/test.
 *
 * - `admin(...args)`: the operator CLI's commands (`npm run admin -- …`) against the run's
 *   database, run in the test's own process: a CLI process per call would spend a second or two
 *   starting up each time.
 * - `createUser()`: a fresh account made by the operator CLI (spares the per-address limits on
 *   registration, which only the registration spec exercises).
 * - `latestCode(email)`: the 6-digit code of the newest mail the SMTP sink received for `email`.
 * - `signIn(page, user)`: the login form, filled and submitted; `signInAsOperator(page)` a new admin, on their dashboard.
 * - `signOut(page)`: the navigation's sign-out button, then the login page it leads to.
 * - `relayApi(path, body, token?)`: a POST to the relay's account API, as the portal and CLIs make it.
 * - `spendThroughRelay(token, model)`: one metered call of `model` with a new API key of the user.
 * - `jsEnabled`: whether this project runs with JavaScript (`js`) or without (`no-js`).
 * - Every page fails its test on a `console.error` or an uncaught error in the page, unless the
 *   test announced it with `allowConsoleError(/pattern/)` (a page it opens on purpose to see a
 *   404, say).
 */
import { randomBytes } from 'node:crypto'
import { test as base, expect, type Page } from '@playwright/test'
import { commands, processIo } from '../../relay/cli.ts'
import { runCli } from '../../relay/cli-registry.ts'
import { startFakeProvider } from '../fixtures/fake-provider.ts'
import { e2eEnv } from './env.ts'
import { elapse } from '../fixtures/time.ts'

/** The command's standard output; a failing command fails the test with its error output. */
export async function admin(...args: string[]): Promise<string> {
  const out: string[] = []
  const err: string[] = []
  const io = { ...processIo({ ...process.env, ...e2eEnv.serverEnv, LOG_LEVEL: 'error' }), stdout: (line: string) => out.push(line), stderr: (line: string) => err.push(line) }
  const code = await runCli(args, commands, io)
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited with ${code}: ${err.join('\n')}`)
  return out.join('\n').trim()
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
    await elapse(200)
  }
  throw new Error(`no code mailed to ${email}`)
}

export async function mailCount(email: string): Promise<number> {
  const response = await fetch(`${e2eEnv.mailUrl}/messages?to=${encodeURIComponent(email)}`)
  return ((await response.json()) as SinkMessage[]).length
}

/** A POST to the relay's account API with the user's access token; fails the test unless it succeeds. */
export async function relayApi(path: string, body: unknown, token?: string): Promise<Record<string, string>> {
  const response = await fetch(`${e2eEnv.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const reply = (await response.json()) as { code: number; data: Record<string, string> }
  expect(reply.code, `${path}: ${JSON.stringify(reply)}`).toBe(0)
  return reply.data
}

/**
 * A fake Anthropic provider on loopback serving a fresh model, added and priced as an operator
 * does: 0.1 point per input token, 0.5 per output token (the provider's 120 in and 40 out cost 32).
 */
export async function serveFakeModel(prefix: string): Promise<{ model: string; close: () => Promise<void> }> {
  const provider = await startFakeProvider()
  const model = uniqueName(prefix)
  await admin('provider', 'add', '--kind', 'anthropic', '--base-url', provider.url, '--key', 'e2e-provider-key-0000', '--models', model)
  await admin('model-cost', 'set', '--model', model, '--kind', 'variable', '--input', '100000', '--output', '500000')
  return { model, close: () => provider.close() }
}

/**
 * One call of `model` through the metered relay, as Claude Code makes it, with a new API key of
 * the user whose access token is `token`; waits until the call is settled (nothing frozen).
 */
export async function spendThroughRelay(token: string, model: string): Promise<void> {
  const { key } = await relayApi('/api/user/api-keys', { name: uniqueName('key') }, token)
  const call = await fetch(`${e2eEnv.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] }),
  })
  expect(call.status).toBe(200)
  await call.text()
  await expect
    .poll(async () => {
      const reply = await fetch(`${e2eEnv.baseUrl}/api/user/points`, { headers: { authorization: `Bearer ${token}` } })
      return ((await reply.json()) as { data: { frozen_points: number } }).data.frozen_points
    })
    .toBe(0)
}

export async function signIn(page: Page, user: TestUser, { remember = false, path = '/auth/login' } = {}) {
  if (!page.url().includes('/auth/login')) await page.goto(path)
  await page.getByLabel(/用户名或邮箱|Username or e-mail/).fill(user.username)
  await page.getByLabel(/^密码$|^Password$/).fill(user.password)
  if (remember) await page.getByLabel(/记住我|Remember me/).check()
  await page.getByRole('button', { name: /^登录$|^Sign in$/ }).click()
}

/**
 * Waits for the login page: with JavaScript the sign-out is a fetch (after a round trip for the
 * route manifest), and a page opened before its answer clears the cookie still has the session,
 * so login would send it on to the dashboard.
 */
export async function signOut(page: Page) {
  await page.getByTestId('logout').filter({ visible: true }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)
}

/** A new admin, signed in on their dashboard: where every operator console spec starts. */
export async function signInAsOperator(page: Page): Promise<TestUser> {
  const operator = await createUser('admin')
  await signIn(page, operator)
  await expect(page).toHaveURL(/\/dashboard$/)
  return operator
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
  page: async ({ page, consoleErrors, allowConsoleError }, use, testInfo) => {
    void allowConsoleError
    // The address the server sees for this test's browser (TRUST_PROXY in env.ts): one per test.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${testInfo.workerIndex % 256}.${randomBytes(1)[0]}.${randomBytes(1)[0]}` })
    page.on('console', (message) => {
      // Chromium logs every 4xx answer as an error: a form answered 400 with its messages, a
      // not-found page. Those are the pages' own statuses, which the specs check; a 5xx is not.
      if (message.type() !== 'error' || /^Failed to load resource: the server responded with a status of 4\d\d\b/.test(message.text())) return
      consoleErrors.push(`${message.text()} (${message.location().url})`)
    })
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`))
    await use(page)
  },
})

export { expect }
