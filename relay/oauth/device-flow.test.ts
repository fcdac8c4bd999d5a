import { accountEndpoints } from '../contract/accounts.ts'
import { oauthEndpoints } from '../contract/oauth.ts'
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { deviceDecision, devicePoll, registerClient, startDevice, type TestClient } from '../../tests/fixtures/oauth.ts'
import { canonicalDeviceCode } from './device-codes.ts'

describe('canonicalDeviceCode', () => {
  it('takes 8 characters with or without the hyphen, in any case, reading O as 0 and I or L as 1', () => {
    expect(canonicalDeviceCode('abcd-efgh')).toBe('ABCD-EFGH')
    expect(canonicalDeviceCode(' 7k2m 9qxz ')).toBe('7K2M-9QXZ')
    expect(canonicalDeviceCode('oil0-1234')).toBe('0110-1234')
  })

  it('refuses what cannot be one of our codes', () => {
    for (const typed of ['ABCD-EFG', 'ABCD-EFGHJ', 'ABCU-EFGH', 'ABC!-EFGH', '']) expect(canonicalDeviceCode(typed)).toBeNull()
  })
})

describeEachDatabase('oauth device flow', (ctx) => {
  const verifying = (token: string, deviceCode: string) => ({ token, body: { device_code: deviceCode } })
  const verifyRefusal = async (token: string, deviceCode: string) => (await ctx.refusal(oauthEndpoints.verifyCode, verifying(token, deviceCode))).reason
  const pollRefusal = async (client: TestClient, deviceSecret: string) => (await ctx.refusal(oauthEndpoints.token, devicePoll(client, deviceSecret))).reason
  const decideRefusal = async (token: string, deviceCode: string) => (await ctx.refusal(oauthEndpoints.authorize, deviceDecision(token, deviceCode))).reason

  it('issues an 8-character code, a separate secret and the verification URLs', async () => {
    const client = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    expect(device.device_code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(device.device_secret).toMatch(/^rds_[A-Za-z0-9_-]{43}$/)
    expect(device).toMatchObject({
      verification_uri: `${ctx.config.publicUrl}/auth/device-code`,
      verification_uri_complete: `${ctx.config.publicUrl}/auth/device-code?code=${device.device_code}`,
      expires_in: 600,
      interval: 5,
    })
    const unknown = await ctx.refusal(oauthEndpoints.deviceCode, { query: { client_id: 'rc_nobody' } })
    expect(unknown.status).toBe(400)
    expect(unknown.reason).toBe('invalid_client')
  })

  it('pending, then slow_down when polled faster than the interval, then tokens once after approval', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx, { name: 'Claude CLI' })
    const device = await startDevice(ctx, client, ['api', 'profile'])

    expect(await pollRefusal(client, device.device_secret)).toBe('authorization_pending')
    const tooFast = await ctx.refusal(oauthEndpoints.token, devicePoll(client, device.device_secret))
    expect(tooFast.status).toBe(400)
    expect(tooFast.details).toEqual({ reason: 'slow_down', interval: 10 })
    ctx.clock.advance(5_000)
    expect(await pollRefusal(client, device.device_secret)).toBe('slow_down')
    ctx.clock.advance(15_000)
    expect(await pollRefusal(client, device.device_secret)).toBe('authorization_pending')

    // Typed as a person might: lower case, no hyphen.
    const checked = await ctx.call(oauthEndpoints.verifyCode, verifying(login.access_token, device.device_code.replace('-', '').toLowerCase()))
    expect(checked).toEqual({
      device_code: device.device_code,
      client_id: client.clientId,
      client_name: 'Claude CLI',
      scopes: ['profile', 'api'],
      expires_timestamp: expect.any(Number),
      // Where and when the device asked, and how long a grant lasts at most.
      requested_timestamp: ctx.clock.now() - 20_000,
      requested_from: expect.stringMatching(/^10\./),
      grant_days: 90,
    })
    expect(await ctx.call(oauthEndpoints.authorize, deviceDecision(login.access_token, device.device_code))).toEqual({ redirect_to: null })

    ctx.clock.advance(15_000)
    const granted = await ctx.call(oauthEndpoints.token, devicePoll(client, device.device_secret))
    expect(granted).toMatchObject({ token_type: 'Bearer', scope: 'profile api' })
    const info = await ctx.call(accountEndpoints.info, { token: granted.access_token })
    expect(info.user.id).toBe(login.user.id)

    ctx.clock.advance(60_000)
    expect(await pollRefusal(client, device.device_secret)).toBe('invalid_grant')
    // Single-use: the decided code is gone for the person too.
    expect(await verifyRefusal(login.access_token, device.device_code)).toBe('device_code_invalid')
  })

  it('denial answers access_denied', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    await ctx.call(oauthEndpoints.authorize, deviceDecision(login.access_token, device.device_code, 'deny'))
    const poll = await ctx.refusal(oauthEndpoints.token, devicePoll(client, device.device_secret))
    expect(poll.status).toBe(400)
    expect(poll.reason).toBe('access_denied')
  })

  it('expires after 10 minutes: device_code_expired for the person, expired_token for the client', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    ctx.clock.advance(600_000)
    expect(await verifyRefusal(login.access_token, device.device_code)).toBe('device_code_expired')
    expect(await decideRefusal(login.access_token, device.device_code)).toBe('device_code_expired')
    expect(await pollRefusal(client, device.device_secret)).toBe('expired_token')
  })

  it('refuses unknown codes, the secret of another client, and a code typed wrong', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const other = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    for (const typed of ['0000-0000', 'not a code', 'ABCU-EFGH']) {
      const refused = await ctx.refusal(oauthEndpoints.verifyCode, verifying(login.access_token, typed))
      expect(refused.status).toBe(422)
      expect(refused.reason).toBe('device_code_invalid')
    }
    expect(await pollRefusal(other, device.device_secret)).toBe('invalid_grant')
    // The 8 characters are not the secret: polling with them gets nothing.
    expect(await pollRefusal(client, device.device_code)).toBe('invalid_grant')
  })

  it('a code is decided once, even by ten parallel approvals', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    const replies = await Promise.all(Array.from({ length: 10 }, () => ctx.outcome(oauthEndpoints.authorize, deviceDecision(login.access_token, device.device_code))))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.error?.reason === 'device_code_invalid')).toHaveLength(9)
  })

  it('twenty parallel polls after approval: exactly one gets the tokens', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const device = await startDevice(ctx, client)
    await ctx.call(oauthEndpoints.authorize, deviceDecision(login.access_token, device.device_code))
    const replies = await Promise.all(Array.from({ length: 20 }, () => ctx.outcome(oauthEndpoints.token, devicePoll(client, device.device_secret))))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.status !== 200).every((r) => ['slow_down', 'invalid_grant'].includes(r.error!.reason!))).toBe(true)
    const grants = await ctx.relay.db.selectFrom('oauth_refresh_tokens').select('id').where('client_id', '=', client.clientId).execute()
    expect(grants).toHaveLength(1)
  })

  it('verify-token reports a client its own active tokens, and nothing about others', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const other = await registerClient(ctx)
    const device = await startDevice(ctx, client, ['billing'])
    await ctx.call(oauthEndpoints.authorize, deviceDecision(login.access_token, device.device_code))
    const tokens = await ctx.call(oauthEndpoints.token, devicePoll(client, device.device_secret))
    const introspecting = (token: string, asker: TestClient) => ({ body: { token, client_id: asker.clientId, client_secret: asker.secret } })
    const introspect = (token: string, asker = client) => ctx.call(oauthEndpoints.verifyToken, introspecting(token, asker))

    const active = await introspect(tokens.access_token)
    expect(active).toEqual({
      active: true,
      sub: login.user.id,
      username: login.user.username,
      client_id: client.clientId,
      scope: 'billing',
      exp: Math.floor(ctx.clock.now() / 1000) + 7200,
    })
    expect(await introspect(tokens.access_token, other)).toEqual({ active: false })
    expect(await introspect(login.access_token)).toEqual({ active: false })
    expect(await introspect('garbage')).toEqual({ active: false })
    const wrongSecret = await ctx.refusal(oauthEndpoints.verifyToken, introspecting(tokens.access_token, { ...client, secret: other.secret }))
    expect(wrongSecret.reason).toBe('invalid_client')
    ctx.clock.advance(7200_000)
    expect(await introspect(tokens.access_token)).toEqual({ active: false })
  })

  it('a token a client holds cannot check or decide device codes', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const first = await startDevice(ctx, client, ['profile', 'api', 'billing'])
    await ctx.call(oauthEndpoints.authorize, deviceDecision(login.access_token, first.device_code))
    const held = (await ctx.call(oauthEndpoints.token, devicePoll(client, first.device_secret))).access_token
    const second = await startDevice(ctx, client)
    expect((await ctx.refusal(oauthEndpoints.verifyCode, verifying(held, second.device_code))).status).toBe(403)
    expect(await decideRefusal(held, second.device_code)).toBe('insufficient_scope')
  })
})
