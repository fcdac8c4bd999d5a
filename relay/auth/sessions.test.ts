import { accountEndpoints } from '../contract/accounts.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { relayConfigSchema } from '../config.ts'
import { startRelay } from '../index.ts'
import { createLogger } from '../logger.ts'

const thirtySeconds = 30_000

describeEachDatabase('sessions', (ctx) => {
  const refresh = (refreshToken: string) => ctx.request('POST', accountEndpoints.refresh.path, { body: { refresh_token: refreshToken } })
  const info = (accessToken: string) => ctx.request('GET', accountEndpoints.info.path, { token: accessToken })

  it('rotates the refresh token: the new pair works and carries the configured lifetimes', async () => {
    const { login } = await ctx.signUp()
    const reply = await refresh(login.refresh_token)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ expires_in: 7200, refresh_expires_in: 2_592_000 })
    expect(reply.body.data.refresh_token).not.toBe(login.refresh_token)
    expect((await info(reply.body.data.access_token)).status).toBe(200)
    expect((await refresh(reply.body.data.refresh_token)).status).toBe(200)
  })

  it('lets two parallel refreshes with the same token both succeed with working tokens', async () => {
    const { login } = await ctx.signUp()
    const [a, b] = await Promise.all([refresh(login.refresh_token), refresh(login.refresh_token)])
    expect([a.status, b.status]).toEqual([200, 200])
    for (const pair of [a.body.data, b.body.data]) {
      expect((await info(pair.access_token)).status).toBe(200)
      expect((await refresh(pair.refresh_token)).status).toBe(200)
    }
  })

  it('accepts a rotated token within the 30-second grace, then treats reuse as theft and ends the family', async () => {
    const { login } = await ctx.signUp()
    const first = await refresh(login.refresh_token)
    ctx.clock.advance(thirtySeconds)
    expect((await refresh(login.refresh_token)).status).toBe(200)
    ctx.clock.advance(1)
    const reused = await refresh(login.refresh_token)
    expect(reused.status).toBe(401)
    expect(reused.body).toMatchObject({ code: 40103, error: { details: { reason: 'refresh_invalid' } } })
    // Every token descended from that login is now dead, the legitimate successor included.
    expect((await refresh(first.body.data.refresh_token)).status).toBe(401)
  })

  it('refuses an expired refresh token (30 days) and an unknown one', async () => {
    const { login } = await ctx.signUp()
    ctx.clock.advance(30 * 24 * 3600 * 1000)
    expect((await refresh(login.refresh_token)).body.error.details.reason).toBe('refresh_invalid')
    expect((await refresh('not-a-token')).status).toBe(401)
  })

  it('expires access tokens after expires_in with 401 token_expired', async () => {
    const { login } = await ctx.signUp()
    ctx.clock.advance(7200 * 1000 - 1000)
    expect((await info(login.access_token)).status).toBe(200)
    ctx.clock.advance(2000)
    const expired = await info(login.access_token)
    expect(expired.status).toBe(401)
    expect(expired.body.error.details.reason).toBe('token_expired')
  })

  it('logout revokes the refresh token and its rotations, without needing an access token', async () => {
    const { login } = await ctx.signUp()
    const rotated = await refresh(login.refresh_token)
    const out = await ctx.request('POST', accountEndpoints.logout.path, { body: { refresh_token: login.refresh_token } })
    expect(out.status).toBe(200)
    expect(out.body.data).toEqual({ ok: true })
    expect((await refresh(rotated.body.data.refresh_token)).status).toBe(401)
    // An empty body is fine too: there is nothing to revoke.
    expect((await ctx.request('POST', accountEndpoints.logout.path)).status).toBe(200)
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
