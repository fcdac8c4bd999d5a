import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { accountEndpoints } from '../contract/accounts.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli, runOperatorCliWithInput } from '../../tests/fixtures/operator-cli.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'

describe.each(databaseKinds())('operator CLI (%s)', (kind) => {
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

  const admin = (...argv: string[]) => runOperatorCli(relay, ...argv)

  it('lists every command with its options', async () => {
    const { code, stdout } = await admin('--help')
    expect(code).toBe(0)
    expect(stdout).toContain('user create')
    expect(stdout).toMatch(/--username <value>\s+login name.*\(required\)/)
    expect(stdout).toContain('--type <normal|vip|team|admin>')
  })

  it('creates a user who can then sign in, and prints the id', async () => {
    const username = relay.unique('op')
    const email = `${username}@example.com`
    const created = await admin('user', 'create', '--username', username, '--email', email, '--password', 'operator-made pw', '--type', 'vip')
    expect(created).toMatchObject({ code: 0, stderr: '' })
    expect(created.stdout).toMatch(/^\d{17,19}$/)
    const login = await relay.call(accountEndpoints.login, { body: { username, password: 'operator-made pw' }, ip: relay.uniqueIp() })
    expect(login).toMatchObject({ user: { id: created.stdout, user_type: 'vip', email } })

    const again = await admin('user', 'create', '--username', username, '--email', `x${email}`, '--password', 'operator-made pw')
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('is taken')
  })

  it('asks for the password when --password is not given, and refuses a short one', async () => {
    const username = relay.unique('op')
    const created = await runOperatorCliWithInput(relay, 'typed, not echoed', 'user', 'create', '--username', username, '--email', `${username}@example.com`)
    expect(created).toMatchObject({ code: 0, stderr: '' })
    expect(created.stdout).not.toContain('typed, not echoed')
    await relay.call(accountEndpoints.login, { body: { username, password: 'typed, not echoed' }, ip: relay.uniqueIp() })
    const short = await runOperatorCliWithInput(relay, 'short', 'user', 'create', '--username', relay.unique('op'), '--email', `${relay.unique('op')}@example.com`)
    expect(short.code).toBe(1)
    expect(short.stderr).toContain('8–128 characters')
  })

  it.runIf(kind === 'sqlite')('reads the password from stdin with --password-stdin in the real process, and prints only the id', async () => {
    const run = async (stdin: string, ...extra: string[]) => {
      const username = relay.unique('op')
      const child = spawn(process.execPath, ['--import', 'tsx', 'relay/cli.ts', 'user', 'create', '--username', username, '--email', `${username}@example.com`, ...extra], {
        env: { ...process.env, DATABASE_URL: database.url, JWT_SECRET: relay.config.jwtSecrets[0], PUBLIC_URL: relay.config.publicUrl, LOG_LEVEL: 'error' },
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stdin.end(stdin)
      const [code] = (await once(child, 'exit')) as [number]
      return { username, code, output }
    }
    const piped = await run('piped secret 42\nthe second line is not read\n', '--password-stdin')
    expect(piped.code, piped.output).toBe(0)
    // Only the new id: no prompt, no password.
    expect(piped.output.trim()).toMatch(/^\d{17,19}$/)
    await relay.call(accountEndpoints.login, { body: { username: piped.username, password: 'piped secret 42' }, ip: relay.uniqueIp() })
    const both = await run('piped secret 42\n', '--password-stdin', '--password', 'given twice 42')
    expect(both.code).toBe(1)
    expect(both.output).toContain('not both')
    expect(both.output).not.toContain('piped secret')
  }, 90_000)

  it('refuses bad or missing options and unknown commands with exit code 2', async () => {
    const bad = await admin('user', 'create', '--username', 'a@b', '--email', 'x@example.com', '--type', 'god')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--username:')
    expect(bad.stderr).toContain('--type:')
    expect((await admin('user', 'create', '--bogus', 'x')).code).toBe(2)
    expect((await admin('nope')).code).toBe(2)
  })
})
