/**
 * The recovery codes, through the portal's forms without JavaScript: shown once in one block,
 * saved as a .txt file by a resource route, and replaced for a current code without turning
 * two-factor sign-in off, the old ones then refused. On SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL.
 */
import { parse } from 'node-html-parser'
import { beforeAll, expect, it } from 'vitest'
import { accountEndpoints } from '../../relay/contract/accounts.ts'
import { securityEndpoints } from '../../relay/contract/security.ts'
import { totpCode } from '../../relay/auth/totp.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import type { TestAccount, TestRelay } from '../fixtures/relay-harness.ts'
import { formInputs, type Visitor } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
const { signedIn } = portalOverRelay(() => target!)
const page = '/profile/security/two-factor'
const step = 30_000

describeEachDatabase('recovery codes', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  const shownCodes = (html: string) => parse(html).querySelectorAll('[data-testid="recovery-code"]').map((item) => item.text.trim())

  /** Turns two-factor sign-in on through the enrolment page; the clock then stands at a fresh step. */
  async function enrolled(account: TestAccount, visitor: Visitor) {
    ctx.clock.set(Math.ceil(ctx.clock.now() / step) * step + 1000)
    const { secret } = await ctx.call(securityEndpoints.startTwoFactor, { token: account.login.access_token })
    const enabled = await visitor.submit(page, { code: totpCode(secret, ctx.clock.now()) })
    expect(enabled.status).toBe(200)
    const html = await enabled.text()
    ctx.clock.advance(step)
    return { secret, html, codes: shownCodes(html) }
  }

  /** Whether `code` completes a sign-in of `account` as its second factor. */
  async function signsInWith(account: TestAccount, code: string): Promise<boolean> {
    const password = await ctx.call(accountEndpoints.login, { body: { username: account.username, password: account.password }, ip: ctx.uniqueIp() })
    if (!('challenge' in password)) throw new Error('expected a two-factor challenge')
    const second = await ctx.outcome(securityEndpoints.loginTwoFactor, { body: { challenge: password.challenge, code }, ip: ctx.uniqueIp() })
    return second.status === 200
  }

  it('shows every code in one selectable block and saves them as a .txt file through a plain form', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const { html, codes } = await enrolled(account, visitor)
    expect(codes).toHaveLength(10)
    const document = parse(html)
    // One click selects the whole block (the no-script way to copy them all).
    expect(document.querySelector('[data-testid="recovery-code-block"]')!.classList.contains('select-all')).toBe(true)
    const button = document.querySelector('[data-testid="download-recovery-codes"]')!
    const form = button.closest('form')!
    expect(form.getAttribute('action')).toBe('/resources/recovery-codes.txt')
    const body = new URLSearchParams(Object.entries(formInputs(form.outerHTML)))
    body.delete('code')
    for (const input of form.querySelectorAll('input[name="code"]')) body.append('code', input.getAttribute('value')!)
    const file = await visitor.post(form.getAttribute('action')!, body)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="recovery-codes.txt"')
    expect(file.headers.get('cache-control')).toBe('no-store')
    expect(await file.text()).toBe(`${codes.join('\r\n')}\r\n`)
    // It answers well-formed codes only, and only to a signed-in browser.
    const odd = await visitor.post('/resources/recovery-codes.txt', new URLSearchParams([['code', '<script>']]))
    expect(odd.status).toBe(302)
    await visitor.submit('/auth/logout', {})
    const signedOut = await visitor.post('/resources/recovery-codes.txt', body)
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('location')).toContain('/auth/login')
  }, 60_000)

  it('replaces the codes for a current code, keeping two-factor on; a reload answers the same codes and the old ones stop working', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const { secret, codes } = await enrolled(account, visitor)
    const form = await visitor.get(page)
    const html = await form.text()
    expect(parse(html).querySelector('[data-testid="codes-left"]')!.text).toContain('10')
    const fields = formInputs(html)
    // A wrong code is refused beside the field, and nothing changes.
    const wrong = await visitor.post(page, new URLSearchParams({ ...fields, intent: 'regenerate', code: '000000' }))
    expect(wrong.status).toBe(422)
    expect(await wrong.text()).toContain('两步验证码错误或已使用')
    expect(await signsInWith(account, codes[0]!)).toBe(true)
    // The same form posted twice (reload, double click) answers the same new codes.
    const submitted = new URLSearchParams({ ...fields, intent: 'regenerate', code: totpCode(secret, ctx.clock.now()) })
    const first = await visitor.post(page, submitted)
    expect(first.status).toBe(200)
    const fresh = shownCodes(await first.text())
    expect(fresh).toHaveLength(10)
    expect(fresh.filter((code) => codes.includes(code))).toEqual([])
    expect(shownCodes(await (await visitor.post(page, submitted)).text())).toEqual(fresh)
    // Still on; the old codes are refused, the new ones work.
    const status = await ctx.call(securityEndpoints.twoFactor, { token: account.login.access_token })
    expect(status).toMatchObject({ enabled: true, recovery_codes_left: 10 })
    expect(await signsInWith(account, codes[1]!)).toBe(false)
    expect(await signsInWith(account, fresh[0]!)).toBe(true)
  }, 60_000)
})
