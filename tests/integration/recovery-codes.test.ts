/**
 * The recovery codes shown once two-factor sign-in is on: besides the list, all of them at once in
 * a .txt file, downloaded through a plain link (no script needed), one code a line.
 */
import { parse } from 'node-html-parser'
import { beforeAll, expect, it } from 'vitest'
import { securityEndpoints } from '../../relay/contract/security.ts'
import { totpCode } from '../../relay/auth/totp.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
const { signedIn } = portalOverRelay(() => target!)

describeEachDatabase('recovery codes', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  it('offers every code at once as a .txt download that works without JavaScript', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const token = account.login.access_token
    const started = await ctx.request('POST', securityEndpoints.startTwoFactor.path, { token })
    const enabled = await visitor.submit('/profile/security/two-factor', { code: totpCode(started.body.data.secret, ctx.clock.now()) })
    expect(enabled.status).toBe(200)
    const page = parse(await enabled.text())
    const shown = page.querySelectorAll('[data-testid="recovery-code"]').map((item) => item.text.trim())
    expect(shown).toHaveLength(10)
    const link = page.querySelector('[data-testid="download-recovery-codes"]')!
    expect(link.getAttribute('download')).toBe('recovery-codes.txt')
    const href = link.getAttribute('href')!
    expect(href.startsWith('data:text/plain;charset=utf-8,')).toBe(true)
    expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(`${shown.join('\r\n')}\r\n`)
  }, 60_000)
})
