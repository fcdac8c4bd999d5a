import { accountEndpoints } from '../contract/accounts.ts'
import { oauthEndpoints } from '../contract/oauth.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { authorizeCode, codeFlowTokens, exchangeCode, pkcePair, registerClient } from '../../tests/fixtures/oauth.ts'

describeEachDatabase('oauth code flow', (ctx) => {
  it('names the client for the consent screen and refuses unknown clients, redirect URIs and scopes', async () => {
    const client = await registerClient(ctx, { name: 'Acme Desktop', firstParty: true })
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
      const reply = await ctx.request('GET', oauthEndpoints.client.path, { query })
      expect(reply.status, reason).toBe(400)
      expect(reply.body.error.details.reason).toBe(reason)
    }
  })

  it('approval redirects to the registered URI with code and state; the PKCE verifier works once', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const { verifier, challenge } = pkcePair()
    const authorized = await authorizeCode(ctx, login.access_token, client, { challenge, scope: 'profile api', state: 'xyz&=1' })
    expect(authorized.status).toBe(200)
    const target = new URL(authorized.body.data.redirect_to)
    expect(`${target.origin}${target.pathname}`).toBe(client.redirectUri)
    expect(target.searchParams.get('state')).toBe('xyz&=1')
    const code = target.searchParams.get('code')!
    expect(code).toMatch(/^rac_[A-Za-z0-9_-]{43}$/)

    const wrongVerifier = await exchangeCode(ctx, client, code, pkcePair().verifier)
    expect(wrongVerifier.status).toBe(400)
    expect(wrongVerifier.body.error.details.reason).toBe('invalid_grant')
    const wrongRedirect = await exchangeCode(ctx, client, code, verifier, `${client.redirectUri}x`)
    expect(wrongRedirect.body.error.details.reason).toBe('invalid_grant')

    const first = await exchangeCode(ctx, client, code, verifier)
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'profile api' })
    const info = await ctx.request('GET', accountEndpoints.info.path, { token: first.body.data.access_token })
    expect(info.status).toBe(200)
    expect(info.body.data.user.id).toBe(login.user.id)

    const second = await exchangeCode(ctx, client, code, verifier)
    expect(second.status).toBe(400)
    expect(second.body.error.details.reason).toBe('invalid_grant')
    // The replay ended the grant the first exchange opened (RFC 6749 §4.1.2).
    const refresh = await ctx.request('POST', oauthEndpoints.token.path, {
      body: { grant_type: 'refresh_token', refresh_token: first.body.data.refresh_token, client_id: client.clientId, client_secret: client.secret },
    })
    expect(refresh.body.error.details.reason).toBe('invalid_grant')
    // …and the access token of that exchange with it (docs/oauth.md).
    expect((await ctx.request('GET', accountEndpoints.info.path, { token: first.body.data.access_token })).status).toBe(401)
  })

  it('a mismatched redirect URI or an unknown client never yields a code or a redirect', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const countCodes = async () =>
      Number((await ctx.relay.db.selectFrom('oauth_authorization_codes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    const before = await countCodes()
    const { challenge } = pkcePair()
    for (const decision of ['approve', 'deny'] as const) {
      const mismatched = await authorizeCode(ctx, login.access_token, client, { challenge, decision, redirectUri: 'https://attacker.example/callback' })
      expect(mismatched.status).toBe(400)
      expect(mismatched.body.error.details.reason).toBe('redirect_uri_mismatch')
      expect(mismatched.text).not.toContain('attacker.example')
      const unknown = await authorizeCode(ctx, login.access_token, { ...client, clientId: 'rc_unknown' }, { challenge, decision })
      expect(unknown.body.error.details.reason).toBe('invalid_client')
    }
    expect(await countCodes()).toBe(before)
  })

  it('denial redirects with error=access_denied and the state, and issues no code', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const denied = await authorizeCode(ctx, login.access_token, client, { challenge: pkcePair().challenge, decision: 'deny', state: 's-42' })
    const target = new URL(denied.body.data.redirect_to)
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
    const codeOf = async () =>
      new URL((await authorizeCode(ctx, login.access_token, client, { challenge })).body.data.redirect_to).searchParams.get('code')!

    const stolen = await codeOf()
    const byOther = await exchangeCode(ctx, { ...other, redirectUri: client.redirectUri }, stolen, verifier)
    expect(byOther.body.error.details.reason).toBe('invalid_grant')
    const wrongSecret = await exchangeCode(ctx, { ...client, secret: other.secret }, stolen, verifier)
    expect(wrongSecret.body.error.details.reason).toBe('invalid_client')

    const late = await codeOf()
    ctx.clock.advance(60_001)
    expect((await exchangeCode(ctx, client, late, verifier)).body.error.details.reason).toBe('invalid_grant')
  })

  it('hands out tokens once when one code is exchanged ten times in parallel', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const { verifier, challenge } = pkcePair()
    const authorized = await authorizeCode(ctx, login.access_token, client, { challenge })
    const code = new URL(authorized.body.data.redirect_to).searchParams.get('code')!
    const replies = await Promise.all(Array.from({ length: 10 }, () => exchangeCode(ctx, client, code, verifier)))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.body.error?.details.reason === 'invalid_grant')).toHaveLength(9)
  })

  it('refresh rotates the token, keeps the scopes, and a replayed refresh token ends the grant', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const tokens = await codeFlowTokens(ctx, login.access_token, client, 'billing')
    const refresh = (token: string, secret = client.secret) =>
      ctx.request('POST', oauthEndpoints.token.path, { body: { grant_type: 'refresh_token', refresh_token: token, client_id: client.clientId, client_secret: secret } })

    expect((await refresh(tokens.refresh_token, 'rcs_wrong')).body.error.details.reason).toBe('invalid_client')
    const next = await refresh(tokens.refresh_token)
    expect(next.status).toBe(200)
    expect(next.body.data.scope).toBe('billing')
    expect(next.body.data.refresh_token).not.toBe(tokens.refresh_token)

    expect((await refresh(tokens.refresh_token)).body.error.details.reason).toBe('invalid_grant')
    // The replay was taken as theft: the successor died with it.
    expect((await refresh(next.body.data.refresh_token)).body.error.details.reason).toBe('invalid_grant')
  })

  it('a password change ends every grant the user gave', async () => {
    const account = await ctx.signUp()
    const client = await registerClient(ctx)
    const tokens = await codeFlowTokens(ctx, account.login.access_token, client, 'profile')
    const changed = await ctx.request('PUT', accountEndpoints.password.path, {
      token: account.login.access_token,
      body: { old_password: account.password, new_password: 'another long password' },
    })
    expect(changed.status).toBe(200)
    const refresh = await ctx.request('POST', oauthEndpoints.token.path, {
      body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.clientId, client_secret: client.secret },
    })
    expect(refresh.body.error.details.reason).toBe('invalid_grant')
    expect((await ctx.request('GET', accountEndpoints.info.path, { token: tokens.access_token })).status).toBe(401)
  })

  it('only a portal session may authorise: a token held by a client gets 403 insufficient_scope', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const tokens = await codeFlowTokens(ctx, login.access_token, client, 'profile api billing')
    const escalate = await authorizeCode(ctx, tokens.access_token, client, { challenge: pkcePair().challenge })
    expect(escalate.status).toBe(403)
    expect(escalate.body.error.details).toEqual({ reason: 'insufficient_scope', required_scope: 'session' })
  })
})
