import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { securityEndpoints } from '../contract/security.ts'
import { adminEndpoints } from '../contract/admin.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { oauthEndpoints } from '../contract/oauth.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens, deviceDecision, devicePoll, registerClient, startDevice } from '../../tests/fixtures/oauth.ts'
import type { TestAccount } from '../../tests/fixtures/relay-harness.ts'
import { totpCode } from './totp.ts'

const step = 30_000

describeEachDatabase('two-factor sign-in and account security', (ctx) => {
  const signingIn = (account: TestAccount, ip: string, password: string) => ({
    body: { username: account.username, password },
    ip,
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' },
  })
  const login = (account: TestAccount, ip = ctx.uniqueIp(), password = account.password) => ctx.call(accountEndpoints.login, signingIn(account, ip, password))
  const loginRefusal = (account: TestAccount) => ctx.refusal(accountEndpoints.login, signingIn(account, ctx.uniqueIp(), account.password))
  /** The session `login` opened (the account has no second factor). */
  const signedIn = async (account: TestAccount, ip?: string) => {
    const reply = await login(account, ip)
    if (!('login_success' in reply)) throw new Error('expected a session, not a challenge')
    return reply
  }
  const secondStep = (challenge: string, code: string) => ctx.call(securityEndpoints.loginTwoFactor, { body: { challenge, code }, ip: ctx.uniqueIp() })
  /** The reason a second step is refused. */
  const stepRefused = async (challenge: string, code: string) =>
    (await ctx.refusal(securityEndpoints.loginTwoFactor, { body: { challenge, code }, ip: ctx.uniqueIp() })).reason
  const stepOutcome = (challenge: string, code: string) => ctx.outcome(securityEndpoints.loginTwoFactor, { body: { challenge, code }, ip: ctx.uniqueIp() })

  /** Signs up, enrols and confirms two-factor sign-in; the clock is then at the start of a fresh step. */
  async function enrolled() {
    const account = await ctx.signUp()
    const token = account.login.access_token
    ctx.clock.set(Math.ceil(ctx.clock.now() / step) * step + 1000)
    const { secret, otpauth_uri: uri } = await ctx.call(securityEndpoints.startTwoFactor, { token })
    expect(uri).toMatch(/^otpauth:\/\/totp\//)
    const status = await ctx.call(securityEndpoints.twoFactor, { token })
    expect(status).toMatchObject({ enabled: false, enrolment: { secret } })
    const enabled = await ctx.call(securityEndpoints.enableTwoFactor, { token, body: { code: totpCode(secret, ctx.clock.now()) } })
    const codes = enabled.recovery_codes
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    // Next step: the confirming code's step is spent.
    ctx.clock.advance(step)
    return { account, token, secret, codes }
  }

  async function challengeOf(account: TestAccount): Promise<string> {
    const reply = await login(account)
    expect(reply).toMatchObject({ two_factor_required: true, expires_in: 300 })
    expect(reply).not.toHaveProperty('access_token')
    if (!('challenge' in reply)) throw new Error('expected a challenge')
    return reply.challenge
  }

  it('never shows the key again once enrolment is confirmed, and keeps it sealed in the database', async () => {
    const { token, secret, account } = await enrolled()
    const status = await ctx.call(securityEndpoints.twoFactor, { token })
    expect(status).toEqual({ enabled: true, required: false, recovery_codes_left: 10, enrolment: null })
    expect((await ctx.refusal(securityEndpoints.startTwoFactor, { token })).reason).toBe('two_factor_enabled')
    const db = ctx.relay.db
    const row = await db.selectFrom('two_factor').innerJoin('users', 'users.id', 'two_factor.user_id').select('secret').where('users.username', '=', account.username).executeTakeFirstOrThrow()
    expect(row.secret).not.toContain(secret)
    expect(row.secret).toMatch(/^v1\./)
  })

  it('asks for a code after the password; the code of the step before, now and after works, one further does not', async () => {
    const { account, secret } = await enrolled()
    const now = ctx.clock.now()
    expect(await stepRefused(await challengeOf(account), totpCode(secret, now - 2 * step))).toBe('two_factor_invalid')
    expect(await stepRefused(await challengeOf(account), totpCode(secret, now + 2 * step))).toBe('two_factor_invalid')
    const session = await secondStep(await challengeOf(account), totpCode(secret, now + step))
    expect(session.login_success).toBe(true)
    expect((await ctx.call(accountEndpoints.info, { token: session.access_token })).two_factor).toEqual({ enabled: true, must_enrol: false })
  })

  it('refuses a code used once already (replay), and an older one after a newer one, even in parallel', async () => {
    const { account, secret } = await enrolled()
    const code = totpCode(secret, ctx.clock.now())
    await secondStep(await challengeOf(account), code)
    expect(await stepRefused(await challengeOf(account), code)).toBe('two_factor_invalid')
    // The previous step's code is within the window but older than the one used.
    expect(await stepRefused(await challengeOf(account), totpCode(secret, ctx.clock.now() - step))).toBe('two_factor_invalid')
    ctx.clock.advance(step)
    const fresh = totpCode(secret, ctx.clock.now())
    const challenges = await Promise.all(Array.from({ length: 10 }, () => challengeOf(account)))
    const replies = await Promise.all(challenges.map((challenge) => stepOutcome(challenge, fresh)))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
  })

  it('takes each recovery code once: of 20 parallel sign-ins with one code exactly one succeeds', async () => {
    const { account, codes, token } = await enrolled()
    const challenges = await Promise.all(Array.from({ length: 20 }, () => challengeOf(account)))
    const replies = await Promise.all(challenges.map((challenge) => stepOutcome(challenge, codes[0]!.toUpperCase())))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    // The rest are refused: the code is spent, or, past five failures, the account is slowed.
    expect(replies.filter((r) => ['two_factor_invalid', 'rate_limited'].includes(r.error?.reason ?? ''))).toHaveLength(19)
    // Each step waits out the slowdown the failures above earned (the password step takes a slot too).
    const afterWait = async () => {
      ctx.clock.advance(60_000)
      const challenge = await challengeOf(account)
      ctx.clock.advance(60_000)
      return challenge
    }
    expect(await stepRefused(await afterWait(), codes[0]!)).toBe('two_factor_invalid')
    // Typed without the hyphen, another code still works.
    await secondStep(await afterWait(), codes[1]!.replace('-', ''))
    expect((await ctx.call(securityEndpoints.twoFactor, { token })).recovery_codes_left).toBe(8)
    // The history says a recovery code was spent, not only that a sign-in succeeded.
    const history = (await ctx.call(securityEndpoints.overview, { token })).sign_ins.map((e) => e.outcome)
    expect(history[0]).toBe('recovery_code')
    expect(history.filter((outcome) => outcome === 'recovery_code')).toHaveLength(2)
    expect(history).not.toContain('success')
  })

  it('slows code guessing per account like password guessing, and a challenge dies after five minutes or a password change', async () => {
    const { account, secret } = await enrolled()
    const challenge = await challengeOf(account)
    for (let i = 0; i < 5; i++) expect(await stepRefused(challenge, '000000')).toBe('two_factor_invalid')
    const slowed = await ctx.refusal(securityEndpoints.loginTwoFactor, { body: { challenge, code: totpCode(secret, ctx.clock.now()) }, ip: ctx.uniqueIp() })
    expect(slowed.status).toBe(429)
    expect(slowed.details?.retry_after).toBeGreaterThanOrEqual(1)
    // The password step counts against the same account: it is slowed as well.
    expect((await loginRefusal(account)).status).toBe(429)
    ctx.clock.advance(1000)
    await secondStep(challenge, totpCode(secret, ctx.clock.now()))
    // Cleared by the successful sign-in.
    const later = await challengeOf(account)
    ctx.clock.advance(300_001)
    expect(await stepRefused(later, totpCode(secret, ctx.clock.now()))).toBe('two_factor_challenge_invalid')
    expect(await stepRefused('not-a-challenge', '123456')).toBe('two_factor_challenge_invalid')
    // An access token is not a challenge.
    expect(await stepRefused(account.login.access_token, '123456')).toBe('two_factor_challenge_invalid')
  })

  it('turns off only with the password and a code', async () => {
    const { token, secret, account } = await enrolled()
    const disabling = (password: string, code: string) => ({ token, body: { password, code } })
    expect((await ctx.refusal(securityEndpoints.disableTwoFactor, disabling('wrong password', totpCode(secret, ctx.clock.now())))).reason).toBe('old_password_wrong')
    expect((await ctx.refusal(securityEndpoints.disableTwoFactor, disabling(account.password, '000000'))).reason).toBe('two_factor_invalid')
    await ctx.call(securityEndpoints.disableTwoFactor, disabling(account.password, totpCode(secret, ctx.clock.now())))
    const plain = await login(account)
    expect(plain).toHaveProperty('login_success', true)
  })

  it('replaces the recovery codes with a current code, keeping the factor on: the old codes stop working', async () => {
    const { account, token, secret, codes } = await enrolled()
    const regenerating = (code: string, idempotencyKey?: string) => ({ token, body: { code }, idempotencyKey })
    const regenerate = (code: string, idempotencyKey?: string) => ctx.call(securityEndpoints.regenerateRecoveryCodes, regenerating(code, idempotencyKey))
    expect((await ctx.refusal(securityEndpoints.regenerateRecoveryCodes, regenerating('000000'))).reason).toBe('two_factor_invalid')
    const formKey = randomBytes(16).toString('base64url')
    const fresh = await regenerate(totpCode(secret, ctx.clock.now()), formKey)
    const newCodes = fresh.recovery_codes
    expect(newCodes).toHaveLength(10)
    expect(newCodes.filter((code) => codes.includes(code))).toEqual([])
    // The same form posted again answers the same codes instead of refusing the spent step.
    const again = await regenerate(totpCode(secret, ctx.clock.now()), formKey)
    expect(again.recovery_codes).toEqual(newCodes)
    expect(await ctx.call(securityEndpoints.twoFactor, { token })).toMatchObject({ enabled: true, recovery_codes_left: 10 })
    // An old code no longer signs in; a new one does.
    expect(await stepRefused(await challengeOf(account), codes[2]!)).toBe('two_factor_invalid')
    await secondStep(await challengeOf(account), newCodes[0]!)
    // A new recovery code vouches for the next replacement too, and is spent by it.
    await regenerate(newCodes[1]!)
    expect(await stepRefused(await challengeOf(account), newCodes[3]!)).toBe('two_factor_invalid')
    // Without a second factor there is nothing to replace.
    const plain = await ctx.signUp()
    const none = await ctx.refusal(securityEndpoints.regenerateRecoveryCodes, { token: plain.login.access_token, body: { code: '123456' } })
    expect(none.reason).toBe('two_factor_not_enabled')
  })

  it('records sign-ins and sessions; one session or all others end at once, on their next call', async () => {
    const account = await ctx.signUp()
    await loginRefusal({ ...account, password: 'wrong password' })
    const a = await signedIn(account, '203.0.113.7')
    const b = await signedIn(account)
    const data = await ctx.call(securityEndpoints.overview, { token: a.access_token })
    expect(data.sign_ins.map((e) => e.outcome)).toEqual(['success', 'success', 'password'])
    expect(data.sign_ins[1]).toMatchObject({ client_ip: '203.0.113.7', user_agent: expect.stringContaining('Chrome/140') })
    // Registration's session and the two sign-ins; this one is marked.
    expect(data.sessions).toHaveLength(3)
    const current = data.sessions.find((s) => s.current)!
    expect(current.client_ip).toBe('203.0.113.7')

    const bOverview = await ctx.call(securityEndpoints.overview, { token: b.access_token })
    const other = bOverview.sessions.find((s) => s.current)!
    await ctx.call(securityEndpoints.endSession, { params: { id: other.id }, token: a.access_token })
    expect((await ctx.refusal(accountEndpoints.info, { token: b.access_token })).status).toBe(401)
    expect((await ctx.refusal(securityEndpoints.endSession, { params: { id: other.id }, token: a.access_token })).status).toBe(404)
    // Another user's session is not found either.
    const stranger = await ctx.signUp()
    expect((await ctx.refusal(securityEndpoints.endSession, { params: { id: current.id }, token: stranger.login.access_token })).status).toBe(404)

    const others = await ctx.call(securityEndpoints.endOtherSessions, { token: a.access_token })
    expect(others).toEqual({ ended: 1 })
    expect((await ctx.refusal(accountEndpoints.info, { token: account.login.access_token })).status).toBe(401)
    await ctx.call(accountEndpoints.info, { token: a.access_token })
    const after = await ctx.call(securityEndpoints.overview, { token: a.access_token })
    expect(after.sessions).toHaveLength(1)
  })

  it('lists client grants and API key events; a revoked grant stops on its next call', async () => {
    const account = await ctx.signUp()
    const token = account.login.access_token
    const client = await registerClient(ctx, { name: 'Editor plug-in' })
    const codeTokens = await codeFlowTokens(ctx, token, client, 'profile')
    const device = await startDevice(ctx, client, ['api'])
    await ctx.call(oauthEndpoints.authorize, deviceDecision(token, device.device_code))
    const deviceTokens = await ctx.call(oauthEndpoints.token, devicePoll(client, device.device_secret))

    const key = await ctx.call(apiKeyEndpoints.create, { token, body: { name: 'laptop' } })
    ctx.clock.advance(1000)
    await ctx.call(apiKeyEndpoints.delete, { params: { id: key.id }, token })

    const overview = await ctx.call(securityEndpoints.overview, { token })
    expect(overview.grants).toHaveLength(2)
    expect(overview.grants.map((g) => g.client_name)).toEqual(['Editor plug-in', 'Editor plug-in'])
    expect(overview.key_events.map((e) => `${e.kind} ${e.name}`)).toEqual(['deleted laptop', 'created laptop'])

    const deviceGrant = overview.grants.find((g) => g.scopes.includes('api'))!
    await ctx.call(apiKeyEndpoints.usage, { token: deviceTokens.access_token })
    await ctx.call(securityEndpoints.revokeGrant, { params: { id: deviceGrant.id }, token })
    expect((await ctx.refusal(apiKeyEndpoints.usage, { token: deviceTokens.access_token })).status).toBe(401)
    // The other grant goes on.
    await ctx.call(accountEndpoints.info, { token: codeTokens.access_token })
    // A client's token cannot manage the account's security.
    expect((await ctx.refusal(securityEndpoints.overview, { token: codeTokens.access_token })).reason).toBe('insufficient_scope')
  })
})

describeEachDatabase('two-factor required of admins', (ctx) => {
  it('keeps an admin without a second factor out of the console until they enrol', async () => {
    const account = await ctx.signUp()
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('username', '=', account.username).execute()
    const token = account.login.access_token
    const info = await ctx.call(accountEndpoints.info, { token })
    expect(info.two_factor).toEqual({ enabled: false, must_enrol: true })
    const console = await ctx.refusal(adminEndpoints.users, { token })
    expect(console.status).toBe(403)
    expect(console.reason).toBe('two_factor_required')
    const { secret } = await ctx.call(securityEndpoints.startTwoFactor, { token })
    await ctx.call(securityEndpoints.enableTwoFactor, { token, body: { code: totpCode(secret, ctx.clock.now()) } })
    await ctx.call(adminEndpoints.users, { token })
  })
}, { requireAdminTwoFactor: true })
