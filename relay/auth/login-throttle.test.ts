import { expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { securityEndpoints } from '../contract/security.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { totpCode } from './totp.ts'

describeEachDatabase('login throttle with device tokens', (ctx) => {
  const signingIn = (username: string, password: string, deviceToken?: string) => ({ body: { username, password, device_token: deviceToken }, ip: ctx.uniqueIp() })
  const login = (username: string, password: string, deviceToken?: string) => ctx.call(accountEndpoints.login, signingIn(username, password, deviceToken))
  const refused = (username: string, password: string, deviceToken?: string) => ctx.refusal(accountEndpoints.login, signingIn(username, password, deviceToken))

  it('lets the owner’s browser in at once after 200 wrong passwords from rotating addresses', async () => {
    const account = await ctx.signUp()
    // The browser that registered holds a device token; a sign-in hands out a fresh one.
    const deviceToken = account.login.device_token
    const replies = []
    for (let i = 0; i < 200; i += 1) replies.push((await refused(account.username, `guess ${i}`)).status)
    // The attacker is slowed: after five free failures nearly every guess waits.
    expect(replies.filter((status) => status === 401).length).toBeLessThanOrEqual(6)
    expect(replies.filter((status) => status === 429).length).toBeGreaterThanOrEqual(194)
    // Without its device token even the right password waits…
    expect((await refused(account.username, account.password)).status).toBe(429)
    // …with it, the owner is in at once.
    const owner = await login(account.username, account.password, deviceToken)
    if (!('device_token' in owner)) throw new Error('expected a session, not a challenge')
    expect(typeof owner.device_token).toBe('string')
    expect(owner.device_token).not.toBe(deviceToken)
    // Two hundred password hashes.
  }, 120_000)

  it('limits a device token to its own allowance, and trusts it only for its own account', async () => {
    const account = await ctx.signUp()
    const other = await ctx.signUp()
    const deviceToken = account.login.device_token
    const windowMs = 15 * 60 * 1000
    ctx.clock.advance(windowMs - (ctx.clock.now() % windowMs))
    // Ten attempts in fifteen minutes, wrong ones included, and none of them counts against the account.
    for (let i = 0; i < 10; i += 1) expect((await refused(account.username, `typo ${i}`, deviceToken)).status).toBe(401)
    const spent = await refused(account.username, account.password, deviceToken)
    expect(spent.status).toBe(429)
    expect(spent.reason).toBe('rate_limited')
    await login(account.username, account.password)
    // Another account's token, or a forged one, is no device of this account: the account's delay applies.
    for (let i = 0; i < 5; i += 1) expect((await refused(other.username, `guess ${i}`)).status).toBe(401)
    expect((await refused(other.username, other.password, deviceToken)).status).toBe(429)
    expect((await refused(other.username, other.password, `${other.login.device_token}x`)).status).toBe(429)
    await login(other.username, other.password, other.login.device_token)
  })

  it('throttles an unknown name exactly like a known one: the same answers, at comparable times', async () => {
    const account = await ctx.signUp()
    const unknown = `nobody-${ctx.unique()}`
    const run = async (username: string) => {
      const answers: string[] = []
      const timings: number[] = []
      for (let i = 0; i < 8; i += 1) {
        const started = performance.now()
        // Raw: the answers are compared whole, as they are on the wire.
        const reply = await ctx.request('POST', accountEndpoints.login.path, signingIn(username, `guess ${i}`))
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
    const { secret } = await ctx.call(securityEndpoints.startTwoFactor, { token })
    await ctx.call(securityEndpoints.enableTwoFactor, { token, body: { code: totpCode(secret, ctx.clock.now()) } })
    for (let i = 0; i < 5; i += 1) {
      const wrong = await ctx.refusal(securityEndpoints.disableTwoFactor, { token, body: { password: `guess ${i}`, code: '000000' } })
      expect(wrong.reason).toBe('old_password_wrong')
    }
    expect((await refused(account.username, account.password)).status).toBe(429)
  })

  it('keeps the device’s allowance through the code step of a two-factor sign-in', async () => {
    const account = await ctx.signUp()
    const token = account.login.access_token
    const { secret } = await ctx.call(securityEndpoints.startTwoFactor, { token })
    await ctx.call(securityEndpoints.enableTwoFactor, { token, body: { code: totpCode(secret, ctx.clock.now()) } })
    ctx.clock.advance(30_000)
    for (let i = 0; i < 40; i += 1) await refused(account.username, `guess ${i}`)
    const password = await login(account.username, account.password, account.login.device_token)
    if (!('two_factor_required' in password)) throw new Error('expected a challenge')
    expect(password.two_factor_required).toBe(true)
    const code = await ctx.call(securityEndpoints.loginTwoFactor, {
      body: { challenge: password.challenge, code: totpCode(secret, ctx.clock.now()) },
      ip: ctx.uniqueIp(),
    })
    expect(typeof code.device_token).toBe('string')
  })
})
