import { SignJWT } from 'jose'
import { accountEndpoints } from '../contract/accounts.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { relayConfigSchema } from '../config.ts'
import { startRelay } from '../index.ts'
import { createLogger } from '../logger.ts'

const thirtySeconds = 30_000

describeEachDatabase('sessions', (ctx) => {
  const refresh = (refreshToken: string) => ctx.call(accountEndpoints.refresh, { body: { refresh_token: refreshToken } })
  const refreshRefused = (refreshToken: string) => ctx.refusal(accountEndpoints.refresh, { body: { refresh_token: refreshToken } })
  const info = (accessToken: string) => ctx.call(accountEndpoints.info, { token: accessToken })
  const infoRefused = (accessToken: string) => ctx.refusal(accountEndpoints.info, { token: accessToken })

  it('rotates the refresh token: the new pair works and carries the configured lifetimes', async () => {
    const { login } = await ctx.signUp()
    const reply = await refresh(login.refresh_token)
    expect(reply).toMatchObject({ expires_in: 7200, refresh_expires_in: 2_592_000 })
    expect(reply.refresh_token).not.toBe(login.refresh_token)
    await info(reply.access_token)
    await refresh(reply.refresh_token)
  })

  it('lets two parallel refreshes with the same token both succeed with working tokens', async () => {
    const { login } = await ctx.signUp()
    const [a, b] = await Promise.all([refresh(login.refresh_token), refresh(login.refresh_token)])
    for (const pair of [a, b]) {
      await info(pair.access_token)
      await refresh(pair.refresh_token)
    }
  })

  it('accepts a rotated token within the 30-second grace, then treats reuse as theft and ends the family', async () => {
    const { login } = await ctx.signUp()
    const first = await refresh(login.refresh_token)
    ctx.clock.advance(thirtySeconds)
    await refresh(login.refresh_token)
    ctx.clock.advance(1)
    const reused = await refreshRefused(login.refresh_token)
    expect(reused.status).toBe(401)
    expect(reused.code).toBe(40103)
    expect(reused.reason).toBe('refresh_invalid')
    // Every token descended from that login is now dead, the legitimate successor included.
    expect((await refreshRefused(first.refresh_token)).status).toBe(401)
  })

  it('refuses an expired refresh token (30 days) and an unknown one', async () => {
    const { login } = await ctx.signUp()
    ctx.clock.advance(30 * 24 * 3600 * 1000)
    expect((await refreshRefused(login.refresh_token)).reason).toBe('refresh_invalid')
    expect((await refreshRefused('not-a-token')).status).toBe(401)
  })

  it('expires access tokens after expires_in with 401 token_expired', async () => {
    const { login } = await ctx.signUp()
    ctx.clock.advance(7200 * 1000 - 1000)
    await info(login.access_token)
    ctx.clock.advance(2000)
    const expired = await infoRefused(login.access_token)
    expect(expired.status).toBe(401)
    expect(expired.reason).toBe('token_expired')
  })

  it('logout revokes the refresh token and its rotations, without needing an access token', async () => {
    const { login } = await ctx.signUp()
    const rotated = await refresh(login.refresh_token)
    const out = await ctx.call(accountEndpoints.logout, { body: { refresh_token: login.refresh_token } })
    expect(out).toEqual({ ok: true })
    expect((await refreshRefused(rotated.refresh_token)).status).toBe(401)
    // An empty body is fine too: there is nothing to revoke. (Raw: a post without any body.)
    expect((await ctx.request('POST', accountEndpoints.logout.path)).status).toBe(200)
  })

  it('ends the access tokens of a signed-out session at once, and a new sign-in does not bring them back', async () => {
    const account = await ctx.signUp()
    const rotated = await refresh(account.login.refresh_token)
    const copied = [account.login.access_token, rotated.access_token]
    for (const token of copied) await info(token)
    await ctx.call(accountEndpoints.logout, { body: { refresh_token: rotated.refresh_token } })
    for (const token of copied) expect((await infoRefused(token)).reason).toBe('unauthenticated')
    const again = await ctx.call(accountEndpoints.login, { body: { username: account.username, password: account.password } })
    if (!('access_token' in again)) throw new Error('expected a session, not a challenge')
    await info(again.access_token)
    for (const token of copied) expect((await infoRefused(token)).status).toBe(401)
  })

  it('keeps the grace for the immediate predecessor only: a token two rotations old ends the session', async () => {
    const { login } = await ctx.signUp()
    const second = await refresh(login.refresh_token)
    const third = await refresh(second.refresh_token)
    // Within the grace window, but its successor was rotated already.
    const stale = await refreshRefused(login.refresh_token)
    expect(stale.reason).toBe('refresh_invalid')
    expect((await refreshRefused(third.refresh_token)).status).toBe(401)
    expect((await infoRefused(third.access_token)).status).toBe(401)
  })

  it('refuses an access token signed with the secret but without exp, or for another issuer or audience', async () => {
    const { login } = await ctx.signUp()
    const [, payload] = login.access_token.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>
    const secret = new TextEncoder().encode(ctx.config.jwtSecrets[0])
    const sign = (changes: Record<string, unknown>) => {
      const { exp, ...rest } = { ...claims, ...changes }
      const jwt = new SignJWT(rest).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      return (exp === undefined ? jwt : jwt.setExpirationTime(exp as number)).sign(secret)
    }
    // The same claims signed again are accepted: the refusals below are each for their one change.
    await info(await sign({}))
    expect((await infoRefused(await sign({ exp: undefined }))).status).toBe(401)
    expect((await infoRefused(await sign({ iss: 'https://elsewhere.example' }))).status).toBe(401)
    expect((await infoRefused(await sign({ aud: 'https://elsewhere.example' }))).status).toBe(401)
    expect((await infoRefused(await sign({ sid: undefined }))).status).toBe(401)
  })

  it('keeps sessions across a JWT secret rotation: tokens signed with the old secret still verify', async () => {
    const { login } = await ctx.signUp()
    const rotated = await startRelay(
      relayConfigSchema.parse({ ...ctx.config, jwtSecrets: ['a-brand-new-secret-a-brand-new-secret-00', ...ctx.config.jwtSecrets] }),
      { clock: ctx.clock, logger: createLogger('error', () => undefined) },
    )
    try {
      const call = (token: string) =>
        rotated.fetch(new Request(`http://relay.test${accountEndpoints.info.path}`, { headers: { authorization: `Bearer ${token}` } }))
      expect((await call(login.access_token)).status).toBe(200)
      const forged = `${login.access_token.slice(0, -4)}AAAA`
      expect((await call(forged)).status).toBe(401)
    } finally {
      await rotated.close()
    }
  })
})

describeEachDatabase('a session\'s absolute lifetime', (ctx) => {
  const refreshing = (refreshToken: string) => ({ body: { refresh_token: refreshToken } })
  const day = 24 * 3600 * 1000

  it('ends SESSION_LIFETIME_DAYS after the sign-in, however often the session refreshes', async () => {
    const { login } = await ctx.signUp()
    let token = login.refresh_token
    // Refreshed every twelve hours, well inside the refresh token's own 30 days.
    for (let hours = 12; hours < 48; hours += 12) {
      ctx.clock.advance(day / 2)
      const reply = await ctx.call(accountEndpoints.refresh, refreshing(token))
      expect(reply.refresh_expires_in).toBe(2 * 24 * 3600 - hours * 3600)
      token = reply.refresh_token
    }
    ctx.clock.advance(day / 2)
    expect((await ctx.refusal(accountEndpoints.refresh, refreshing(token))).reason).toBe('refresh_invalid')
  })
}, { sessionLifetimeDays: 2 })
