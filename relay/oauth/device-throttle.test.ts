import { oauthEndpoints } from '../contract/oauth.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { deviceDecision, registerClient, startDevice } from '../../tests/fixtures/oauth.ts'
import { RateLimiter } from '../http/rate-limit.ts'
import { RelayError } from '../http/relay-error.ts'
import { everyone, oauthLimits } from './rate-limits.ts'

describeEachDatabase('oauth device-code guessing', (ctx) => {
  const verifying = (token: string, deviceCode: string) => ({ token, body: { device_code: deviceCode } })
  const verify = (token: string, deviceCode: string) => ctx.call(oauthEndpoints.verifyCode, verifying(token, deviceCode))

  it('limits look-ups per account: past the limit even the right code is refused, other accounts go on', async () => {
    const guesser = await ctx.signUp()
    const bystander = await ctx.signUp()
    const client = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    for (let i = 0; i < oauthLimits.deviceLookupPerUser.limit; i++) {
      const guess = await ctx.refusal(oauthEndpoints.verifyCode, verifying(guesser.login.access_token, `${String(i).padStart(4, '0')}-ZZZZ`))
      expect(guess.reason).toBe('device_code_invalid')
    }
    for (const blocked of [
      ctx.refusal(oauthEndpoints.verifyCode, verifying(guesser.login.access_token, device.device_code)),
      ctx.refusal(oauthEndpoints.authorize, deviceDecision(guesser.login.access_token, device.device_code)),
    ]) {
      const refused = await blocked
      expect(refused.status).toBe(429)
      expect(refused.reason).toBe('rate_limited')
      expect(refused.details?.retry_after).toBeGreaterThan(0)
    }
    await verify(bystander.login.access_token, device.device_code)

    ctx.clock.advance(oauthLimits.deviceLookupPerUser.windowSeconds * 1000)
    const later = await startDevice(ctx, client)
    await verify(guesser.login.access_token, later.device_code)
  })

  it('limits look-ups across all accounts together', async () => {
    const client = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    const fresh = await ctx.signUp()
    // Spend the global allowance as a crowd of accounts would, through the relay's own limiter.
    const limiter = new RateLimiter(ctx.relay.db, ctx.clock)
    const hit = () =>
      limiter.enforce(oauthLimits.deviceLookupGlobal, everyone).then(
        () => false,
        (error: unknown) => error instanceof RelayError && error.reason === 'rate_limited',
      )
    let spent = false
    for (let i = 0; i <= oauthLimits.deviceLookupGlobal.limit && !spent; i += 100) {
      spent = (await Promise.all(Array.from({ length: 100 }, hit))).some(Boolean)
    }
    expect(spent).toBe(true)
    const refused = await ctx.refusal(oauthEndpoints.verifyCode, verifying(fresh.login.access_token, device.device_code))
    expect(refused.status).toBe(429)
    expect(refused.reason).toBe('rate_limited')

    ctx.clock.advance(oauthLimits.deviceLookupGlobal.windowSeconds * 1000)
    const later = await startDevice(ctx, client)
    await verify(fresh.login.access_token, later.device_code)
  })
})
