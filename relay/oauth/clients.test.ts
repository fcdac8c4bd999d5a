import { oauthEndpoints } from '../contract/oauth.ts'
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens } from '../../tests/fixtures/oauth.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { redirectUriProblem } from '../contract/oauth.ts'

describe('redirectUriProblem', () => {
  it('accepts https anywhere and plain http only on loopback', () => {
    for (const uri of ['https://app.example/cb', 'https://app.example/cb?x=1', 'http://127.0.0.1:8765/callback', 'http://localhost/cb', 'http://[::1]:9/cb']) {
      expect(redirectUriProblem(uri), uri).toBeNull()
    }
  })

  it('refuses relative, fragment, plain-http and script URIs', () => {
    for (const uri of ['/callback', 'https://app.example/cb#x', 'http://app.example/cb', 'javascript:alert(1)', 'data:text/html,hi']) {
      expect(redirectUriProblem(uri), uri).not.toBeNull()
    }
  })
})

describeEachDatabase('client commands', (relay) => {
  const admin = (...argv: string[]) => runOperatorCli(relay, ...argv)

  it('creates a client, prints its id and secret once, keeps only a digest, lists and removes it', async () => {
    const uris = ['http://127.0.0.1:8765/callback', 'https://app.example/cb']
    const created = await admin('client', 'create', '--name', 'Acme CLI', '--redirect-uri', uris.join(','), '--first-party')
    expect(created).toMatchObject({ code: 0, stderr: '' })
    const clientId = /^client_id=(rc_\S+)$/m.exec(created.stdout)?.[1]
    const secret = /^client_secret=(rcs_\S+)$/m.exec(created.stdout)?.[1]
    expect(clientId).toBeDefined()
    expect(secret).toBeDefined()

    const row = await relay.relay.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId!).executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(secret!)
    expect(JSON.parse(row.redirect_uris)).toEqual(uris)

    const listed = await admin('client', 'list')
    expect(listed.stdout.split('\n')).toContain([clientId, 'first-party', 'Acme CLI', uris.join(' ')].join('\t'))

    // Removal ends what the client holds: its refresh tokens and its ability to authenticate.
    const { login } = await relay.signUp()
    const tokens = await codeFlowTokens(relay, login.access_token, { clientId: clientId!, secret: secret!, redirectUri: uris[0]! })
    expect((await admin('client', 'remove', '--client-id', clientId!)).stdout).toBe(`removed ${clientId}`)
    const refresh = await relay.refusal(oauthEndpoints.token, {
      body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId!, client_secret: secret! },
    })
    expect(refresh.reason).toBe('invalid_client')
    expect((await admin('client', 'list')).stdout).not.toContain(clientId!)
    expect(await admin('client', 'remove', '--client-id', clientId!)).toMatchObject({ code: 1, stderr: `client remove: no client ${clientId}` })
  })

  it('refuses a redirect URI a browser could be sent to over plain http', async () => {
    const refused = await admin('client', 'create', '--name', 'Bad', '--redirect-uri', 'http://app.example/cb')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('must be https://')
  })
})
