import { accountEndpoints } from '../contract/accounts.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'

describeEachDatabase('login', (ctx) => {
  const signingIn = (username: string, password: string, ip = ctx.uniqueIp()) => ({ body: { username, password }, ip })
  const login = (username: string, password: string, ip?: string) => ctx.call(accountEndpoints.login, signingIn(username, password, ip))
  const refused = (username: string, password: string, ip?: string) => ctx.refusal(accountEndpoints.login, signingIn(username, password, ip))

  it('signs in by username or e-mail and returns login data with 64-bit ids as bare numbers', async () => {
    const account = await ctx.signUp()
    for (const login of [account.username.toUpperCase(), account.email.toUpperCase()]) {
      // Raw: the test reads how the ids are written on the wire.
      const reply = await ctx.request('POST', accountEndpoints.login.path, { body: { username: login, password: account.password }, ip: ctx.uniqueIp() })
      expect(reply.status).toBe(200)
      const data = reply.body.data
      expect(data).toMatchObject({
        login_success: true,
        expires_in: 7200,
        refresh_expires_in: 30 * 24 * 3600,
        user: { id: account.login.user.id, username: account.username, email: account.email, user_type: 'normal', status: 'active' },
        points: { hour_points: 100, validity_days: 30, status: 'none', remaining_points: 0 },
      })
      expect(data.user.last_login_timestamp).toBe(ctx.clock.now())
      expect(BigInt(data.user.id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
      // On the wire the id is a bare number, digit for digit.
      expect(reply.text).toContain(`"id":${data.user.id},`)
    }
  })

  it('answers 401 invalid_credentials to a wrong password and to an unknown user alike', async () => {
    const account = await ctx.signUp()
    // Raw: the test reads the whole error envelope.
    const wrong = await ctx.request('POST', accountEndpoints.login.path, signingIn(account.username, 'not the password'))
    const unknown = await ctx.request('POST', accountEndpoints.login.path, signingIn('nobody-here', 'whatever1'))
    for (const reply of [wrong, unknown]) {
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({ code: 40101, message: 'wrong username or password', error: { details: { reason: 'invalid_credentials' } } })
    }
  })

  it('answers 400 validation with the fields at fault', async () => {
    // Raw: a body without its required password.
    const reply = await ctx.request('POST', accountEndpoints.login.path, { body: { username: '' }, ip: ctx.uniqueIp() })
    expect(reply.status).toBe(400)
    expect(reply.body.error.details.reason).toBe('validation')
    expect(Object.keys(reply.body.error.details.fields).sort()).toEqual(['password', 'username'])
  })

  it('refuses a disabled account only after the right password', async () => {
    const account = await ctx.signUp()
    await ctx.relay.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', account.login.user.id).execute()
    const ip = ctx.uniqueIp()
    const wrong = await refused(account.username, 'not the password', ip)
    expect(wrong.status).toBe(401)
    const right = await refused(account.username, account.password, ip)
    expect(right.status).toBe(403)
    expect(right.reason).toBe('account_disabled')
    // Its existing access token stops working too.
    const info = await ctx.refusal(accountEndpoints.info, { token: account.login.access_token })
    expect(info.status).toBe(401)
  })

  it('limits attempts per address and login name: 10 per 15 minutes, then 429 with retry_after', async () => {
    const account = await ctx.signUp()
    const ip = ctx.uniqueIp()
    // At the start of a window, so the waits of the account's own limit below stay inside it.
    const windowMs = 15 * 60 * 1000
    ctx.clock.advance(windowMs - (ctx.clock.now() % windowMs))
    for (let i = 0; i < 10; i++) {
      expect((await refused(account.username, 'wrong password', ip)).status).toBe(401)
      // Past five failures the account itself makes each attempt wait 1, 2, 4… s (login-throttle.ts).
      if (i >= 4) ctx.clock.advance(1000 * 2 ** (i - 4))
    }
    const limited = await refused(account.username, account.password, ip)
    expect(limited.status).toBe(429)
    expect(limited.code).toBe(42900)
    expect(limited.details).toMatchObject({ reason: 'rate_limited' })
    const retryAfter = limited.details?.retry_after ?? 0
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    // Another address is not affected, and the window passes.
    await login(account.username, account.password)
    ctx.clock.advance(retryAfter * 1000)
    await login(account.username, account.password, ip)
  })

  it('lets exactly 10 of 20 parallel logins through the limiter', async () => {
    const account = await ctx.signUp()
    const ip = ctx.uniqueIp()
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => ctx.outcome(accountEndpoints.login, signingIn(account.username, account.password, ip))),
    )
    const statuses = replies.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(10)
  })

  it('slows guessing one account from many addresses without locking its owner out', async () => {
    const account = await ctx.signUp()
    const attempt = (password: string) => refused(account.username, password)
    // Five failures are free, from any address.
    for (let i = 0; i < 5; i += 1) expect((await attempt(`wrong password ${i}`)).reason).toBe('invalid_credentials')
    // Then each attempt waits after the one before: 1 s after the fifth failure.
    const early = await attempt('wrong password 5')
    expect(early.status).toBe(429)
    expect(early.details).toMatchObject({ reason: 'rate_limited', retry_after: 1 })
    ctx.clock.advance(1000)
    // Of parallel attempts in one slot, one is let through.
    const parallel = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(`parallel ${i}`)))
    expect(parallel.filter((reply) => reply.status === 401)).toHaveLength(1)
    expect(parallel.filter((reply) => reply.status === 429)).toHaveLength(9)
    // Six failures: the next waits 2 s, doubling up to a minute.
    ctx.clock.advance(1999)
    expect((await attempt('wrong again')).status).toBe(429)
    for (let failures = 6; failures < 14; failures += 1) {
      ctx.clock.advance(60_000)
      expect((await attempt('wrong again')).status).toBe(401)
    }
    expect((await attempt('wrong again')).details?.retry_after).toBe(60)
    // The owner waits at most a minute, and is in; the count starts over.
    ctx.clock.advance(60_000)
    await login(account.username, account.password)
    for (let i = 0; i < 5; i += 1) expect((await attempt(`wrong after ${i}`)).status).toBe(401)
  })
})
