import { expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { securityEndpoints } from '../contract/security.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { totpCode } from './totp.ts'

describeEachDatabase('login throttle with device tokens', (ctx) => {
  const login = (username: string, password: string, deviceToken?: string) =>
    ctx.request('POST', accountEndpoints.login.path, { body: { username, password, device_token: deviceToken }, ip: ctx.uniqueIp() })

  it('lets the owner’s browser in at once after 200 wrong passwords from rotating addresses', async () => {
    const account = await ctx.signUp()
    // The browser that registered holds a device token; a sign-in hands out a fresh one.
    const deviceToken = account.login.device_token
    const replies = []
    for (let i = 0; i < 200; i += 1) replies.push((await login(account.username, `guess ${i}`)).status)
    // The attacker is slowed: after five free failures nearly every guess waits.
    expect(replies.filter((status) => status === 401).length).toBeLessThanOrEqual(6)
    expect(replies.filter((status) => status === 429).length).toBeGreaterThanOrEqual(194)
    // Without its device token even the right password waits…
    expect((await login(account.username, account.password)).status).toBe(429)
    // …with it, the owner is in at once.
    const owner = await login(account.username, account.password, deviceToken)
    expect(owner.status).toBe(200)
    expect(typeof owner.body.data.device_token).toBe('string')
    expect(owner.body.data.device_token).not.toBe(deviceToken)
    // Two hundred password hashes.
  }, 120_000)

  it('limits a device token to its own allowance, and trusts it only for its own account', async () => {
    const account = await ctx.signUp()
    const other = await ctx.signUp()
    const deviceToken = account.login.device_token
    const windowMs = 15 * 60 * 1000
    ctx.clock.advance(windowMs - (ctx.clock.now() % windowMs))
    // Ten attempts in fifteen minutes, wrong ones included, and none of them counts against the account.
    for (let i = 0; i < 10; i += 1) expect((await login(account.username, `typo ${i}`, deviceToken)).status).toBe(401)
    const spent = await login(account.username, account.password, deviceToken)
    expect(spent.status).toBe(429)
    expect(spent.body.error.details.reason).toBe('rate_limited')
    expect((await login(account.username, account.password)).status).toBe(200)
    // Another account's token, or a forged one, is no device of this account: the account's delay applies.
    for (let i = 0; i < 5; i += 1) expect((await login(other.username, `guess ${i}`)).status).toBe(401)
    expect((await login(other.username, other.password, deviceToken)).status).toBe(429)
    expect((await login(other.username, other.password, `${other.login.device_token}x`)).status).toBe(429)
    expect((await login(other.username, other.password, other.login.device_token)).status).toBe(200)
  })

  it('throttles an unknown name exactly like a known one: the same answers, at comparable times', async () => {
    const account = await ctx.signUp()
    const unknown = `nobody-${ctx.unique()}`
    const run = async (username: string) => {
      const answers: string[] = []
      const timings: number[] = []
      for (let i = 0; i < 8; i += 1) {
        const started = performance.now()
        const reply = await login(username, `guess ${i}`)
        timings.push(performance.now() - started)
        answers.push(`${reply.status} ${JSON.stringify(reply.body)}`)
        if (i === 6) ctx.clock.advance(1000)
      }
      return { answers, timings }
    }
    const known = await run(account.username)
    const stranger = await run(unknown)
    expect(stranger.answers).toEqual(known.answers)
    expect(known.answers.map((answer) => answer.slice(0, 3))).toEqual(['401', '401', '401', '401', '401', '429', '429', '401'])
    // Each wrong password costs one password hash either way (a decoy for the unknown name).
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const ratio = median(stranger.timings) / median(known.timings)
    expect(ratio).toBeGreaterThan(0.5)
    expect(ratio).toBeLessThan(2)
  })

  it('counts wrong passwords when turning two-factor off against the same account', async () => {
    const account = await ctx.signUp()
    const token = account.login.access_token
    const started = await ctx.request('POST', securityEndpoints.startTwoFactor.path, { token })
    const secret: string = started.body.data.secret
    expect((await ctx.request('POST', securityEndpoints.enableTwoFactor.path, { token, body: { code: totpCode(secret, ctx.clock.now()) } })).status).toBe(200)
    for (let i = 0; i < 5; i += 1) {
      const wrong = await ctx.request('POST', securityEndpoints.disableTwoFactor.path, { token, body: { password: `guess ${i}`, code: '000000' } })
      expect(wrong.body.error.details.reason).toBe('old_password_wrong')
    }
    expect((await login(account.username, account.password)).status).toBe(429)
  })

  it('keeps the device’s allowance through the code step of a two-factor sign-in', async () => {
    const account = await ctx.signUp()
    const token = account.login.access_token
    const started = await ctx.request('POST', securityEndpoints.startTwoFactor.path, { token })
    const secret: string = started.body.data.secret
    expect((await ctx.request('POST', securityEndpoints.enableTwoFactor.path, { token, body: { code: totpCode(secret, ctx.clock.now()) } })).status).toBe(200)
    ctx.clock.advance(30_000)
    for (let i = 0; i < 40; i += 1) await login(account.username, `guess ${i}`)
    const password = await login(account.username, account.password, account.login.device_token)
    expect(password.body.data.two_factor_required).toBe(true)
    const code = await ctx.request('POST', securityEndpoints.loginTwoFactor.path, {
      body: { challenge: password.body.data.challenge, code: totpCode(secret, ctx.clock.now()) },
      ip: ctx.uniqueIp(),
    })
    expect(code.status).toBe(200)
    expect(typeof code.body.data.device_token).toBe('string')
  })
})
