import { accountEndpoints } from '../contract/accounts.ts'
import { expect, it, vi } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { quickUser } from '../../tests/fixtures/points.ts'

describeEachDatabase('own account', (ctx) => {
  const login = (username: string, password: string) => ctx.call(accountEndpoints.login, { body: { username, password }, ip: ctx.uniqueIp() })
  const loginRefusal = (username: string, password: string) => ctx.refusal(accountEndpoints.login, { body: { username, password }, ip: ctx.uniqueIp() })

  it('returns user info with the default points block and no subscriptions', async () => {
    const account = await ctx.signUp()
    // Raw: the test reads how the id is written on the wire.
    const reply = await ctx.request('GET', accountEndpoints.info.path, { token: account.login.access_token })
    expect(reply.body.data).toEqual({
      user: account.login.user,
      points: {
        ...account.login.points,
        hour_points: 100,
        validity_days: 30,
        status: 'none',
        total_points: 0,
        remaining_points: 0,
        used_points: 0,
        total_used_points: 0,
      },
      subscriptions: [],
      two_factor: { enabled: false, must_enrol: false },
    })
    expect(reply.text).toContain(`"user":{"id":${account.login.user.id},`)
  })

  it('updates the profile fields given, clears with empty strings, and validates them', async () => {
    const account = await ctx.signUp()
    const token = account.login.access_token
    ctx.clock.advance(1000)
    const first = await ctx.call(accountEndpoints.profile, {
      token,
      body: { name: '  张三 ', phone: '+86 138 0000 0000', company: 'ACME', avatar: 'https://example.com/a.png' },
    })
    expect(first).toMatchObject({ name: '张三', phone: '+86 138 0000 0000', company: 'ACME', avatar: 'https://example.com/a.png' })
    expect(first.update_timestamp).toBe(ctx.clock.now())

    const second = await ctx.call(accountEndpoints.profile, { token, body: { phone: '', avatar: null } })
    expect(second).toMatchObject({ name: '张三', phone: null, company: 'ACME', avatar: null })

    const invalid = await ctx.refusal(accountEndpoints.profile, { token, body: { avatar: 'javascript:alert(1)', name: 'x'.repeat(65) } })
    expect(invalid.status).toBe(400)
    expect(Object.keys(invalid.details?.fields ?? {}).sort()).toEqual(['avatar', 'name'])
    expect((await ctx.refusal(accountEndpoints.profile, { body: { name: 'x' } })).status).toBe(401)
  })

  it('changes the password: old must match; other sessions end; this one gets fresh tokens', async () => {
    const account = await ctx.signUp()
    const other = await login(account.username, account.password)
    if (!('login_success' in other)) throw new Error('expected a signed-in login')
    const wrong = await ctx.refusal(accountEndpoints.password, {
      token: account.login.access_token,
      body: { old_password: 'not the password', new_password: 'a whole new password' },
    })
    expect(wrong.status).toBe(422)
    expect(wrong.reason).toBe('old_password_wrong')

    const fresh = await ctx.call(accountEndpoints.password, {
      token: account.login.access_token,
      body: { old_password: account.password, new_password: 'a whole new password' },
    })
    expect(fresh).toMatchObject({ expires_in: 7200, refresh_expires_in: 2_592_000 })

    // The other session's access and refresh tokens die at once; so do this session's old ones.
    for (const token of [other.access_token, account.login.access_token]) {
      expect((await ctx.refusal(accountEndpoints.info, { token })).status).toBe(401)
    }
    for (const refreshToken of [other.refresh_token, account.login.refresh_token]) {
      expect((await ctx.refusal(accountEndpoints.refresh, { body: { refresh_token: refreshToken } })).status).toBe(401)
    }
    await ctx.call(accountEndpoints.info, { token: fresh.access_token })
    await ctx.call(accountEndpoints.refresh, { body: { refresh_token: fresh.refresh_token } })
    expect((await loginRefusal(account.username, account.password)).status).toBe(401)
    await login(account.username, 'a whole new password')
  })

  it('reports username and e-mail availability, case-insensitively, and rate-limits the checks', async () => {
    const account = await ctx.signUp()
    const ip = ctx.uniqueIp()
    const checkUsername = (username: string) => ctx.call(accountEndpoints.checkUsername, { query: { username }, ip })
    const checkEmail = (email: string) => ctx.call(accountEndpoints.checkEmail, { query: { email }, ip })
    expect(await checkUsername(account.username.toUpperCase())).toEqual({ available: false })
    expect(await checkUsername(ctx.unique('free'))).toEqual({ available: true })
    expect(await checkUsername('has@sign')).toEqual({ available: false })
    expect(await checkEmail(account.email.toUpperCase())).toEqual({ available: false })
    expect(await checkEmail(`${ctx.unique('free')}@example.com`)).toEqual({ available: true })
    // Raw: a query without its required field.
    expect((await ctx.request('GET', accountEndpoints.checkEmail.path, { ip })).status).toBe(400)

    const replies = await Promise.all(Array.from({ length: 60 }, () => ctx.outcome(accountEndpoints.checkEmail, { query: { email: 'x@example.com' }, ip })))
    // 6 of the minute's 60 were spent above (the 400 is rejected before the limiter).
    expect(replies.filter((r) => r.status === 429)).toHaveLength(5)
  })

  it('resets a forgotten password with the mailed code, ending every session', async () => {
    const account = await ctx.signUp()
    const ip = ctx.uniqueIp()
    const unknown = `${ctx.unique('ghost')}@example.com`
    const silent = await ctx.call(accountEndpoints.sendResetCode, { body: { email: unknown }, ip })
    expect(silent).toEqual({ ok: true, resend_after: 60 })
    expect(ctx.smtp.messages(unknown)).toHaveLength(0)

    // Sign-up mailed this address a code just now: one code a minute per address, any purpose.
    ctx.clock.advance(60_000)
    await ctx.call(accountEndpoints.sendResetCode, { body: { email: account.email }, ip })
    // Mailed after the answer.
    await vi.waitFor(() => expect(ctx.smtp.latest(account.email)?.subject).toBe('重置密码验证码'))
    const code = ctx.lastCode(account.email)
    const mismatch = await ctx.refusal(accountEndpoints.resetPassword, {
      body: { email: account.email, code, new_password: 'brand new password', confirm_password: 'other password' },
      ip,
    })
    expect(mismatch.status).toBe(400)
    expect(mismatch.details?.fields).toHaveProperty('confirm_password')

    await ctx.call(accountEndpoints.resetPassword, {
      body: { email: account.email, code, new_password: 'brand new password', confirm_password: 'brand new password' },
      ip,
    })
    expect((await ctx.refusal(accountEndpoints.info, { token: account.login.access_token })).status).toBe(401)
    expect((await ctx.refusal(accountEndpoints.refresh, { body: { refresh_token: account.login.refresh_token } })).status).toBe(401)
    await login(account.email, 'brand new password')

    // The code was single-use.
    const again = await ctx.refusal(accountEndpoints.resetPassword, {
      body: { email: account.email, code, new_password: 'third password!', confirm_password: 'third password!' },
      ip,
    })
    expect(again.reason).toBe('code_invalid')
  })
})

describeEachDatabase('a password reset while the mail server is down', (ctx) => {
  it('answers a registered address as it answers an unknown one: the mail goes out after the answer', async () => {
    const account = await quickUser(ctx)
    const registered = `${account.username.toLowerCase()}@example.com`
    for (const email of [registered, `${ctx.unique('ghost')}@example.com`]) {
      const reply = await ctx.call(accountEndpoints.sendResetCode, { body: { email }, ip: ctx.uniqueIp() })
      expect(reply).toEqual({ ok: true, resend_after: 60 })
    }
    // Only the registered address was mailed, and the failure is the operator's to see.
    await vi.waitFor(() => expect(ctx.logs.filter((line) => line.includes('mail delivery failed'))).toHaveLength(1))
  })
}, { smtpUrl: 'smtp://127.0.0.1:9' })
