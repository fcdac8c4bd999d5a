import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { securityEndpoints } from '../contract/security.ts'
import { fillPath } from '../contract/paths.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens, decideDevice, pollDevice, registerClient, startDevice } from '../../tests/fixtures/oauth.ts'
import type { TestAccount } from '../../tests/fixtures/relay-harness.ts'
import { totpCode } from './totp.ts'

const step = 30_000

describeEachDatabase('two-factor sign-in and account security', (ctx) => {
  const reasonOf = (reply: { body: { error?: { details: { reason: string } } } }) => reply.body.error?.details.reason
  const login = (account: TestAccount, ip = ctx.uniqueIp(), password = account.password) =>
    ctx.request('POST', accountEndpoints.login.path, { body: { username: account.username, password }, ip, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' } })
  const secondStep = (challenge: string, code: string, ip = ctx.uniqueIp()) => ctx.request('POST', securityEndpoints.loginTwoFactor.path, { body: { challenge, code }, ip })

  /** Signs up, enrols and confirms two-factor sign-in; the clock is then at the start of a fresh step. */
  async function enrolled() {
    const account = await ctx.signUp()
    const token = account.login.access_token
    ctx.clock.set(Math.ceil(ctx.clock.now() / step) * step + 1000)
    const started = await ctx.request('POST', securityEndpoints.startTwoFactor.path, { token })
    expect(started.status).toBe(200)
    const { secret, otpauth_uri: uri } = started.body.data
    expect(uri).toMatch(/^otpauth:\/\/totp\//)
    const status = await ctx.request('GET', securityEndpoints.twoFactor.path, { token })
    expect(status.body.data).toMatchObject({ enabled: false, enrolment: { secret } })
    const enabled = await ctx.request('POST', securityEndpoints.enableTwoFactor.path, { token, body: { code: totpCode(secret, ctx.clock.now()) } })
    expect(enabled.status).toBe(200)
    const codes: string[] = enabled.body.data.recovery_codes
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    // Next step: the confirming code's step is spent.
    ctx.clock.advance(step)
    return { account, token, secret: secret as string, codes }
  }

  async function challengeOf(account: TestAccount): Promise<string> {
    const reply = await login(account)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ two_factor_required: true, expires_in: 300 })
    expect(reply.body.data.access_token).toBeUndefined()
    return reply.body.data.challenge
  }

  it('never shows the key again once enrolment is confirmed, and keeps it sealed in the database', async () => {
    const { token, secret, account } = await enrolled()
    const status = await ctx.request('GET', securityEndpoints.twoFactor.path, { token })
    expect(status.body.data).toEqual({ enabled: true, required: false, recovery_codes_left: 10, enrolment: null })
    expect(reasonOf(await ctx.request('POST', securityEndpoints.startTwoFactor.path, { token }))).toBe('two_factor_enabled')
    const db = ctx.relay.db
    const row = await db.selectFrom('two_factor').innerJoin('users', 'users.id', 'two_factor.user_id').select('secret').where('users.username', '=', account.username).executeTakeFirstOrThrow()
    expect(row.secret).not.toContain(secret)
    expect(row.secret).toMatch(/^v1\./)
  })

  it('asks for a code after the password; the code of the step before, now and after works, one further does not', async () => {
    const { account, secret } = await enrolled()
    const now = ctx.clock.now()
    expect(reasonOf(await secondStep(await challengeOf(account), totpCode(secret, now - 2 * step)))).toBe('two_factor_invalid')
    expect(reasonOf(await secondStep(await challengeOf(account), totpCode(secret, now + 2 * step)))).toBe('two_factor_invalid')
    const signedIn = await secondStep(await challengeOf(account), totpCode(secret, now + step))
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.data.login_success).toBe(true)
    expect((await ctx.request('GET', accountEndpoints.info.path, { token: signedIn.body.data.access_token })).body.data.two_factor).toEqual({ enabled: true, must_enrol: false })
  })

  it('refuses a code used once already (replay), and an older one after a newer one, even in parallel', async () => {
    const { account, secret } = await enrolled()
    const code = totpCode(secret, ctx.clock.now())
    expect((await secondStep(await challengeOf(account), code)).status).toBe(200)
    expect(reasonOf(await secondStep(await challengeOf(account), code))).toBe('two_factor_invalid')
    // The previous step's code is within the window but older than the one used.
    expect(reasonOf(await secondStep(await challengeOf(account), totpCode(secret, ctx.clock.now() - step)))).toBe('two_factor_invalid')
    ctx.clock.advance(step)
    const fresh = totpCode(secret, ctx.clock.now())
    const challenges = await Promise.all(Array.from({ length: 10 }, () => challengeOf(account)))
    const replies = await Promise.all(challenges.map((challenge) => secondStep(challenge, fresh)))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
  })

  it('takes each recovery code once: of 20 parallel sign-ins with one code exactly one succeeds', async () => {
    const { account, codes, token } = await enrolled()
    const challenges = await Promise.all(Array.from({ length: 20 }, () => challengeOf(account)))
    const replies = await Promise.all(challenges.map((challenge) => secondStep(challenge, codes[0]!.toUpperCase())))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    // The rest are refused: the code is spent, or, past five failures, the account is slowed.
    expect(replies.filter((r) => ['two_factor_invalid', 'rate_limited'].includes(reasonOf(r) ?? ''))).toHaveLength(19)
    // Each step waits out the slowdown the failures above earned (the password step takes a slot too).
    const afterWait = async () => {
      ctx.clock.advance(60_000)
      const challenge = await challengeOf(account)
      ctx.clock.advance(60_000)
      return challenge
    }
    expect(reasonOf(await secondStep(await afterWait(), codes[0]!))).toBe('two_factor_invalid')
    // Typed without the hyphen, another code still works.
    expect((await secondStep(await afterWait(), codes[1]!.replace('-', ''))).status).toBe(200)
    expect((await ctx.request('GET', securityEndpoints.twoFactor.path, { token })).body.data.recovery_codes_left).toBe(8)
    // The history says a recovery code was spent, not only that a sign-in succeeded.
    const history = (await ctx.request('GET', securityEndpoints.overview.path, { token })).body.data.sign_ins.map((e: { outcome: string }) => e.outcome)
    expect(history[0]).toBe('recovery_code')
    expect(history.filter((outcome: string) => outcome === 'recovery_code')).toHaveLength(2)
    expect(history).not.toContain('success')
  })

  it('slows code guessing per account like password guessing, and a challenge dies after five minutes or a password change', async () => {
    const { account, secret } = await enrolled()
    const challenge = await challengeOf(account)
    for (let i = 0; i < 5; i++) expect(reasonOf(await secondStep(challenge, '000000'))).toBe('two_factor_invalid')
    const slowed = await secondStep(challenge, totpCode(secret, ctx.clock.now()))
    expect(slowed.status).toBe(429)
    expect(slowed.body.error.details.retry_after).toBeGreaterThanOrEqual(1)
    // The password step counts against the same account: it is slowed as well.
    expect((await login(account)).status).toBe(429)
    ctx.clock.advance(1000)
    expect((await secondStep(challenge, totpCode(secret, ctx.clock.now()))).status).toBe(200)
    // Cleared by the successful sign-in.
    const later = await challengeOf(account)
    ctx.clock.advance(300_001)
    expect(reasonOf(await secondStep(later, totpCode(secret, ctx.clock.now())))).toBe('two_factor_challenge_invalid')
    expect(reasonOf(await secondStep('not-a-challenge', '123456'))).toBe('two_factor_challenge_invalid')
    // An access token is not a challenge.
    expect(reasonOf(await secondStep(account.login.access_token, '123456'))).toBe('two_factor_challenge_invalid')
  })

  it('turns off only with the password and a code', async () => {
    const { token, secret, account } = await enrolled()
    const disable = (password: string, code: string) => ctx.request('POST', securityEndpoints.disableTwoFactor.path, { token, body: { password, code } })
    expect(reasonOf(await disable('wrong password', totpCode(secret, ctx.clock.now())))).toBe('old_password_wrong')
    expect(reasonOf(await disable(account.password, '000000'))).toBe('two_factor_invalid')
    expect((await disable(account.password, totpCode(secret, ctx.clock.now()))).status).toBe(200)
    const plain = await login(account)
    expect(plain.body.data.login_success).toBe(true)
  })

  it('replaces the recovery codes with a current code, keeping the factor on: the old codes stop working', async () => {
    const { account, token, secret, codes } = await enrolled()
    const regenerate = (code: string, headers?: Record<string, string>) => ctx.request('POST', securityEndpoints.regenerateRecoveryCodes.path, { token, body: { code }, headers })
    expect(reasonOf(await regenerate('000000'))).toBe('two_factor_invalid')
    const formKey = { 'idempotency-key': randomBytes(16).toString('base64url') }
    const fresh = await regenerate(totpCode(secret, ctx.clock.now()), formKey)
    expect(fresh.status).toBe(200)
    const newCodes: string[] = fresh.body.data.recovery_codes
    expect(newCodes).toHaveLength(10)
    expect(newCodes.filter((code) => codes.includes(code))).toEqual([])
    // The same form posted again answers the same codes instead of refusing the spent step.
    const again = await regenerate(totpCode(secret, ctx.clock.now()), formKey)
    expect(again.body.data.recovery_codes).toEqual(newCodes)
    expect((await ctx.request('GET', securityEndpoints.twoFactor.path, { token })).body.data).toMatchObject({ enabled: true, recovery_codes_left: 10 })
    // An old code no longer signs in; a new one does.
    expect(reasonOf(await secondStep(await challengeOf(account), codes[2]!))).toBe('two_factor_invalid')
    expect((await secondStep(await challengeOf(account), newCodes[0]!)).status).toBe(200)
    // A new recovery code vouches for the next replacement too, and is spent by it.
    const byRecovery = await regenerate(newCodes[1]!)
    expect(byRecovery.status).toBe(200)
    expect(reasonOf(await secondStep(await challengeOf(account), newCodes[3]!))).toBe('two_factor_invalid')
    // Without a second factor there is nothing to replace.
    const plain = await ctx.signUp()
    const none = await ctx.request('POST', securityEndpoints.regenerateRecoveryCodes.path, { token: plain.login.access_token, body: { code: '123456' } })
    expect(reasonOf(none)).toBe('two_factor_not_enabled')
  })

  it('records sign-ins and sessions; one session or all others end at once, on their next call', async () => {
    const account = await ctx.signUp()
    await login(account, ctx.uniqueIp(), 'wrong password')
    const a = (await login(account, '203.0.113.7')).body.data
    const b = (await login(account)).body.data
    const overview = await ctx.request('GET', securityEndpoints.overview.path, { token: a.access_token })
    expect(overview.status).toBe(200)
    const data = overview.body.data
    expect(data.sign_ins.map((e: { outcome: string }) => e.outcome)).toEqual(['success', 'success', 'password'])
    expect(data.sign_ins[1]).toMatchObject({ client_ip: '203.0.113.7', user_agent: expect.stringContaining('Chrome/140') })
    // Registration's session and the two sign-ins; this one is marked.
    expect(data.sessions).toHaveLength(3)
    const current = data.sessions.find((s: { current: boolean }) => s.current)
    expect(current.client_ip).toBe('203.0.113.7')

    const bOverview = (await ctx.request('GET', securityEndpoints.overview.path, { token: b.access_token })).body.data
    const other = bOverview.sessions.find((s: { current: boolean }) => s.current)
    const ended = await ctx.request('DELETE', fillPath(securityEndpoints.endSession.path, { id: other.id }), { token: a.access_token })
    expect(ended.status).toBe(200)
    expect((await ctx.request('GET', accountEndpoints.info.path, { token: b.access_token })).status).toBe(401)
    expect((await ctx.request('DELETE', fillPath(securityEndpoints.endSession.path, { id: other.id }), { token: a.access_token })).status).toBe(404)
    // Another user's session is not found either.
    const stranger = await ctx.signUp()
    expect((await ctx.request('DELETE', fillPath(securityEndpoints.endSession.path, { id: current.id }), { token: stranger.login.access_token })).status).toBe(404)

    const others = await ctx.request('POST', securityEndpoints.endOtherSessions.path, { token: a.access_token })
    expect(others.body.data).toEqual({ ended: 1 })
    expect((await ctx.request('GET', accountEndpoints.info.path, { token: account.login.access_token })).status).toBe(401)
    expect((await ctx.request('GET', accountEndpoints.info.path, { token: a.access_token })).status).toBe(200)
    const after = await ctx.request('GET', securityEndpoints.overview.path, { token: a.access_token })
    expect(after.body.data.sessions).toHaveLength(1)
  })

  it('lists client grants and API key events; a revoked grant stops on its next call', async () => {
    const account = await ctx.signUp()
    const token = account.login.access_token
    const client = await registerClient(ctx, { name: 'Editor plug-in' })
    const codeTokens = await codeFlowTokens(ctx, token, client, 'profile')
    const device = await startDevice(ctx, client, ['api'])
    await decideDevice(ctx, token, device.device_code)
    const deviceTokens = (await pollDevice(ctx, client, device.device_secret)).body.data

    const key = await ctx.request('POST', '/api/user/api-keys', { token, body: { name: 'laptop' } })
    expect(key.status).toBe(200)
    ctx.clock.advance(1000)
    await ctx.request('DELETE', `/api/user/api-keys/${key.body.data.id}`, { token })

    const overview = (await ctx.request('GET', securityEndpoints.overview.path, { token })).body.data
    expect(overview.grants).toHaveLength(2)
    expect(overview.grants.map((g: { client_name: string }) => g.client_name)).toEqual(['Editor plug-in', 'Editor plug-in'])
    expect(overview.key_events.map((e: { kind: string; name: string }) => `${e.kind} ${e.name}`)).toEqual(['deleted laptop', 'created laptop'])

    const deviceGrant = overview.grants.find((g: { scopes: string[] }) => g.scopes.includes('api'))
    expect((await ctx.request('GET', '/api/v1/usage', { token: deviceTokens.access_token })).status).toBe(200)
    expect((await ctx.request('DELETE', fillPath(securityEndpoints.revokeGrant.path, { id: deviceGrant.id }), { token })).status).toBe(200)
    expect((await ctx.request('GET', '/api/v1/usage', { token: deviceTokens.access_token })).status).toBe(401)
    // The other grant goes on.
    expect((await ctx.request('GET', accountEndpoints.info.path, { token: codeTokens.access_token })).status).toBe(200)
    // A client's token cannot manage the account's security.
    expect(reasonOf(await ctx.request('GET', securityEndpoints.overview.path, { token: codeTokens.access_token }))).toBe('insufficient_scope')
  })
})

describeEachDatabase('two-factor required of admins', (ctx) => {
  it('keeps an admin without a second factor out of the console until they enrol', async () => {
    const account = await ctx.signUp()
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('username', '=', account.username).execute()
    const token = account.login.access_token
    const info = await ctx.request('GET', accountEndpoints.info.path, { token })
    expect(info.body.data.two_factor).toEqual({ enabled: false, must_enrol: true })
    const console = await ctx.request('GET', '/api/admin/users', { token })
    expect(console.status).toBe(403)
    expect(console.body.error.details.reason).toBe('two_factor_required')
    const { secret } = (await ctx.request('POST', securityEndpoints.startTwoFactor.path, { token })).body.data
    expect((await ctx.request('POST', securityEndpoints.enableTwoFactor.path, { token, body: { code: totpCode(secret, ctx.clock.now()) } })).status).toBe(200)
    expect((await ctx.request('GET', '/api/admin/users', { token })).status).toBe(200)
  })
}, { requireAdminTwoFactor: true })
