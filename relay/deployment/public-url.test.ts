import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultPublicUrl, loadRelayConfig, type RelayConfig } from '../config.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser } from '../../tests/fixtures/points.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'

/** The operator CLI in a shell whose environment has no PUBLIC_URL, or the one given. */
function cliEnvironment(relay: TestRelay, publicUrl?: string): TestRelay {
  const config: RelayConfig = { ...relay.config, publicUrl: publicUrl ?? defaultPublicUrl, publicUrlConfigured: publicUrl !== undefined }
  return { ...relay, config }
}

describe.each(databaseKinds())('the public address the operator CLI prints links on (%s)', (kind) => {
  let database: TestDatabase
  let relay: TestRelay | undefined
  const start = async (publicUrl?: string) => {
    await relay?.close()
    relay = await startTestRelay(database, publicUrl ? { publicUrl } : {})
    return relay
  }
  const teamCreate = async (ctx: TestRelay, cli: TestRelay) => {
    const owner = await quickUser(ctx)
    return runOperatorCli(cli, 'team', 'create', '--name', `team ${owner.username}`, '--package', 'TEAM', '--owner', owner.username)
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind)
  })
  afterAll(async () => {
    await relay?.close()
    await database.dispose()
  })

  it('is the address the server was started with, though the CLI’s environment has none', async () => {
    const server = await start('https://portal.example.com')
    const made = await teamCreate(server, cliEnvironment(server))
    expect(made.code).toBe(0)
    const [code, link] = made.stdout.split('\n')
    expect(link).toBe(`https://portal.example.com/subscription?team_code=${code}`)
  })

  it('is the CLI’s own PUBLIC_URL when it has one', async () => {
    const server = await start('https://portal.example.com')
    const [code, link] = (await teamCreate(server, cliEnvironment(server, 'https://other.example.net'))).stdout.split('\n')
    expect(link).toBe(`https://other.example.net/subscription?team_code=${code}`)
  })

  it('is unknown when the server last started without PUBLIC_URL: no link rather than localhost', async () => {
    await start('https://portal.example.com')
    const restarted = await start()
    const made = await teamCreate(restarted, cliEnvironment(restarted))
    expect(made.code).toBe(0)
    expect(made.stdout).not.toContain('http')
    expect(made.stdout.split('\n')[1]).toMatch(/^no invitation link: PUBLIC_URL is not set here, and the server has not recorded one/)
  })
})

describe('PUBLIC_URL in the configuration', () => {
  const secret = 's'.repeat(32)
  it('tells a configured address from the default', () => {
    expect(loadRelayConfig({ JWT_SECRET: secret })).toMatchObject({ publicUrl: defaultPublicUrl, publicUrlConfigured: false })
    expect(loadRelayConfig({ JWT_SECRET: secret, PUBLIC_URL: 'https://portal.example.com' })).toMatchObject({
      publicUrl: 'https://portal.example.com',
      publicUrlConfigured: true,
    })
  })
})
