/**
 * Signing in through the portal's login form: a new sign-in ends the session the browser held
 * before, and the device cookie it hands out lets the owner in past a flood of wrong passwords
 * from elsewhere (relay/auth/device-tokens.ts). On SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import { beforeAll, expect, it } from 'vitest'
import { accountEndpoints } from '../../relay/contract/accounts.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { Visitor } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
const { handle, signedIn } = portalOverRelay(() => target!)

describeEachDatabase('signing in again', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  it('ends the previous session: its cookie no longer opens the dashboard', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const earlier = visitor.cookieHeader()
    expect((await visitor.get('/dashboard', earlier)).status).toBe(200)
    // The same browser signs in again (a fixed or copied cookie would be the earlier one).
    const again = await visitor.submit('/auth/login', { username: account.username, password: account.password })
    expect(again.status).toBe(302)
    expect((await visitor.get('/dashboard')).status).toBe(200)
    const stale = await visitor.get('/dashboard', earlier)
    expect(stale.status).toBe(302)
    expect(stale.headers.get('location')).toContain('/auth/login')
  }, 60_000)

  it('lets the owner’s browser, with its device cookie, in at once after 200 wrong passwords from rotating addresses', async () => {
    const account = await ctx.signUp()
    const owner = await signedIn(account)
    expect(owner.cookies.get('device')).toBeTruthy()
    await owner.submit('/auth/logout', {})
    expect(owner.cookies.has('__session')).toBe(false)
    for (let i = 0; i < 200; i += 1) {
      await ctx.refusal(accountEndpoints.login, { body: { username: account.username, password: `guess ${i}` }, ip: ctx.uniqueIp() })
    }
    // A browser without the device cookie waits, like the attacker…
    const stranger = await new Visitor(handle).submit('/auth/login', { username: account.username, password: account.password })
    expect(stranger.status).toBe(429)
    // …the owner's does not.
    const signIn = await owner.submit('/auth/login', { username: account.username, password: account.password })
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get('location')).toBe('/dashboard')
    expect((await owner.get('/dashboard')).status).toBe(200)
    // Two hundred password hashes.
  }, 120_000)
})
