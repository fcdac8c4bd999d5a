import { accountEndpoints } from '../contract/accounts.ts'
import { oauthEndpoints } from '../contract/oauth.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeExchange, codeFlowTokens, codeOf, codeRequest, pkcePair, registerClient } from '../../tests/fixtures/oauth.ts'

describeEachDatabase('oauth code flow', (ctx) => {
  it('names the client for the consent screen and refuses unknown clients, redirect URIs and scopes', async () => {
    const client = await registerClient(ctx, { name: 'Acme Desktop', firstParty: true })
    // Raw: the test reads how the client id is written on the wire.
    const ok = await ctx.request('GET', oauthEndpoints.client.path, {
      query: { client_id: client.clientId, redirect_uri: client.redirectUri, scope: 'billing profile' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual({ client_id: client.clientId, name: 'Acme Desktop', first_party: true, scopes: ['profile', 'billing'], grant_days: 90 })
    // The client id is never all digits, so it travels as a JSON string.
    expect(ok.text).toContain(`"client_id":"${client.clientId}"`)

    const refusals = [
      [{ client_id: 'rc_nobody', redirect_uri: client.redirectUri }, 'invalid_client'],
      [{ client_id: client.clientId, redirect_uri: `${client.redirectUri}/evil` }, 'redirect_uri_mismatch'],
      [{ client_id: client.clientId, redirect_uri: client.redirectUri.replace('127.0.0.1', 'localhost') }, 'redirect_uri_mismatch'],
      [{ client_id: client.clientId, redirect_uri: client.redirectUri, scope: 'profile admin' }, 'invalid_scope'],
    ] as const
    for (const [query, reason] of refusals) {
      const refused = await ctx.refusal(oauthEndpoints.client, { query })
      expect(refused.status, reason).toBe(400)
      expect(refused.reason).toBe(reason)
    }
  })

  it('approval redirects to the registered URI with code and state; the PKCE verifier works once', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const { verifier, challenge } = pkcePair()
    const authorized = await ctx.call(oauthEndpoints.authorize, codeRequest(login.access_token, client, { challenge, scope: 'profile api', state: 'xyz&=1' }))
    const target = new URL(authorized.redirect_to!)
    expect(`${target.origin}${target.pathname}`).toBe(client.redirectUri)
    expect(target.searchParams.get('state')).toBe('xyz&=1')
    const code = target.searchParams.get('code')!
    expect(code).toMatch(/^rac_[A-Za-z0-9_-]{43}$/)

    const wrongVerifier = await ctx.refusal(oauthEndpoints.token, codeExchange(client, code, pkcePair().verifier))
    expect(wrongVerifier.status).toBe(400)
    expect(wrongVerifier.reason).toBe('invalid_grant')
    const wrongRedirect = await ctx.refusal(oauthEndpoints.token, codeExchange(client, code, verifier, `${client.redirectUri}x`))
    expect(wrongRedirect.reason).toBe('invalid_grant')

    const first = await ctx.call(oauthEndpoints.token, codeExchange(client, code, verifier))
    expect(first).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'profile api' })
    const info = await ctx.call(accountEndpoints.info, { token: first.access_token })
    expect(info.user.id).toBe(login.user.id)

    const second = await ctx.refusal(oauthEndpoints.token, codeExchange(client, code, verifier))
    expect(second.status).toBe(400)
    expect(second.reason).toBe('invalid_grant')
    // The replay ended the grant the first exchange opened (RFC 6749 §4.1.2).
    const refresh = await ctx.refusal(oauthEndpoints.token, {
      body: { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: client.clientId, client_secret: client.secret },
    })
    expect(refresh.reason).toBe('invalid_grant')
    // …and the access token of that exchange with it (docs/oauth.md).
    expect((await ctx.refusal(accountEndpoints.info, { token: first.access_token })).status).toBe(401)
  })

  it('a mismatched redirect URI or an unknown client never yields a code or a redirect', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const countCodes = async () =>
      Number((await ctx.relay.db.selectFrom('oauth_authorization_codes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    const before = await countCodes()
    const { challenge } = pkcePair()
    for (const decision of ['approve', 'deny'] as const) {
      // Raw: the test reads the whole answer for the URI.
      const mismatched = await ctx.request('POST', oauthEndpoints.authorize.path, codeRequest(login.access_token, client, { challenge, decision, redirectUri: 'https://attacker.example/callback' }))
      expect(mismatched.status).toBe(400)
      expect(mismatched.body.error.details.reason).toBe('redirect_uri_mismatch')
      expect(mismatched.text).not.toContain('attacker.example')
      const unknown = await ctx.refusal(oauthEndpoints.authorize, codeRequest(login.access_token, { ...client, clientId: 'rc_unknown' }, { challenge, decision }))
      expect(unknown.reason).toBe('invalid_client')
    }
    expect(await countCodes()).toBe(before)
  })

  it('denial redirects with error=access_denied and the state, and issues no code', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const denied = await ctx.call(oauthEndpoints.authorize, codeRequest(login.access_token, client, { challenge: pkcePair().challenge, decision: 'deny', state: 's-42' }))
    const target = new URL(denied.redirect_to!)
    expect([...target.searchParams.entries()]).toEqual([
      ['error', 'access_denied'],
      ['state', 's-42'],
    ])
  })

  it('codes expire after 60 seconds and belong to the client they were issued to', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const other = await registerClient(ctx)
    const { verifier, challenge } = pkcePair()
    const newCode = async () => codeOf(await ctx.call(oauthEndpoints.authorize, codeRequest(login.access_token, client, { challenge })))

    const stolen = await newCode()
    const byOther = await ctx.refusal(oauthEndpoints.token, codeExchange({ ...other, redirectUri: client.redirectUri }, stolen, verifier))
    expect(byOther.reason).toBe('invalid_grant')
    const wrongSecret = await ctx.refusal(oauthEndpoints.token, codeExchange({ ...client, secret: other.secret }, stolen, verifier))
    expect(wrongSecret.reason).toBe('invalid_client')

    const late = await newCode()
    ctx.clock.advance(60_001)
    expect((await ctx.refusal(oauthEndpoints.token, codeExchange(client, late, verifier))).reason).toBe('invalid_grant')
  })

  it('hands out tokens once when one code is exchanged ten times in parallel', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const { verifier, challenge } = pkcePair()
    const code = codeOf(await ctx.call(oauthEndpoints.authorize, codeRequest(login.access_token, client, { challenge })))
    const replies = await Promise.all(Array.from({ length: 10 }, () => ctx.outcome(oauthEndpoints.token, codeExchange(client, code, verifier))))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.error?.reason === 'invalid_grant')).toHaveLength(9)
  })

  it('refresh rotates the token, keeps the scopes, and a replayed refresh token ends the grant', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const tokens = await codeFlowTokens(ctx, login.access_token, client, 'billing')
    const refresh = (token: string, secret = client.secret) =>
      ({ body: { grant_type: 'refresh_token', refresh_token: token, client_id: client.clientId, client_secret: secret } }) as const

    expect((await ctx.refusal(oauthEndpoints.token, refresh(tokens.refresh_token, 'rcs_wrong'))).reason).toBe('invalid_client')
    const next = await ctx.call(oauthEndpoints.token, refresh(tokens.refresh_token))
    expect(next.scope).toBe('billing')
    expect(next.refresh_token).not.toBe(tokens.refresh_token)

    expect((await ctx.refusal(oauthEndpoints.token, refresh(tokens.refresh_token))).reason).toBe('invalid_grant')
    // The replay was taken as theft: the successor died with it.
    expect((await ctx.refusal(oauthEndpoints.token, refresh(next.refresh_token))).reason).toBe('invalid_grant')
  })

  it('a password change ends every grant the user gave', async () => {
    const account = await ctx.signUp()
    const client = await registerClient(ctx)
    const tokens = await codeFlowTokens(ctx, account.login.access_token, client, 'profile')
    await ctx.call(accountEndpoints.password, {
      token: account.login.access_token,
      body: { old_password: account.password, new_password: 'another long password' },
    })
    const refresh = await ctx.refusal(oauthEndpoints.token, {
      body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.clientId, client_secret: client.secret },
    })
    expect(refresh.reason).toBe('invalid_grant')
    expect((await ctx.refusal(accountEndpoints.info, { token: tokens.access_token })).status).toBe(401)
  })

  it('only a portal session may authorise: a token held by a client gets 403 insufficient_scope', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const tokens = await codeFlowTokens(ctx, login.access_token, client, 'profile api billing')
    const escalate = await ctx.refusal(oauthEndpoints.authorize, codeRequest(tokens.access_token, client, { challenge: pkcePair().challenge }))
    expect(escalate.status).toBe(403)
    expect(escalate.details).toEqual({ reason: 'insufficient_scope', required_scope: 'session' })
  })
})
