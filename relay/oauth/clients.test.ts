import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens } from '../../tests/fixtures/oauth.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'
import { commands } from '../cli.ts'
import { runCli, type CliIo } from '../cli-registry.ts'
import { oauthPaths } from '../contract/oauth.ts'
import { createLogger } from '../logger.ts'
import { openRuntime } from '../runtime.ts'
import { createServices } from '../services.ts'
import { redirectUriProblem } from './clients.ts'

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

describe.each(databaseKinds())('client commands (%s)', (kind) => {
  let database: TestDatabase
  let relay: TestRelay

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    relay = await startTestRelay(database)
  })
  afterAll(async () => {
    await relay.close()
    await database.dispose()
  })

  async function admin(...argv: string[]) {
    const out: string[] = []
    const err: string[] = []
    const io: CliIo = {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      async openServices() {
        const runtime = await openRuntime(relay.config, { logger: createLogger('error', (line) => err.push(line)) })
        return { services: createServices(runtime.deps), close: () => runtime.close() }
      },
    }
    return { code: await runCli(argv, commands, io), stdout: out.join('\n'), stderr: err.join('\n') }
  }

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
    const refresh = await relay.request('POST', oauthPaths.token, {
      body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: secret },
    })
    expect(refresh.body.error.details.reason).toBe('invalid_client')
    expect((await admin('client', 'list')).stdout).not.toContain(clientId!)
    expect(await admin('client', 'remove', '--client-id', clientId!)).toMatchObject({ code: 1, stderr: `client remove: no client ${clientId}` })
  })

  it('refuses a redirect URI a browser could be sent to over plain http', async () => {
    const refused = await admin('client', 'create', '--name', 'Bad', '--redirect-uri', 'http://app.example/cb')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('must be https://')
  })
})
