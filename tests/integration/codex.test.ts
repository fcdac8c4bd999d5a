/**
 * The real Codex CLI (`@openai/codex`, its native binary from the registry's platform package
 * `@openai/codex-linux-x64`) against the production server (server/main.ts, relay embedded) and
 * the loopback fake provider's Responses API, configured as docs/claude-code.md says: a
 * `[model_providers.relay]` block in `~/.codex/config.toml`, the key in the variable it names.
 * The operator's steps run through the operator CLI's commands, the user's through the portal's
 * HTTP API; the prices are the seeded ones.
 *
 * Codex never reaches anything but loopback: a temp HOME, and every other host behind a proxy
 * that does not exist. Skipped, saying why, where the platform binary is not installed.
 *
 * Needs the portal build (`npm run build`; `npm test` builds first).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadRelayConfig, type RelayConfig } from '../../relay/config.ts'
import { createLogger } from '../../relay/logger.ts'
import { pointsForUsage } from '../../relay/points/model-costs.ts'
import { openRuntime, type Runtime } from '../../relay/runtime.ts'
import { cliDeployment } from '../fixtures/cli-deployment.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider, type FakeUsage } from '../fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../fixtures/ledger.ts'
import { productionSecrets, startProductionServer, type ProductionServer } from '../fixtures/production-server.ts'
import { codexConfigToml, codexKeyVariable } from '../../app/utils/cli-setup.ts'
import { elapse } from '../fixtures/time.ts'

/** The native binary, or why there is none (another platform, or optional dependencies skipped). */
function findCodexBinary(): { path: string } | { missing: string } {
  try {
    const root = dirname(createRequire(import.meta.url).resolve('@openai/codex-linux-x64/package.json'))
    const path = join(root, 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex')
    return existsSync(path) ? { path } : { missing: `${path} is absent` }
  } catch {
    return { missing: `@openai/codex-linux-x64 is not installed (platform ${process.platform}-${process.arch})` }
  }
}
const codexBinary = findCodexBinary()
if ('missing' in codexBinary) console.warn(`Codex CLI suite skipped: ${codexBinary.missing}.`)

/** A typical Codex turn: most of the prompt read back from the cache, most of the output reasoning. */
const typicalUsage: FakeUsage = { input_tokens: 1800, cache_read_tokens: 24_000, cache_write_tokens: 0, output_tokens: 700, reasoning_tokens: 500 }
const answerText = 'Relayed answer: 敏捷的棕色狐狸 jumps over the lazy dog.'

for (const kind of databaseKinds()) {
  describe.skipIf('missing' in codexBinary)(`Codex CLI through the production server (${kind})`, { timeout: 180_000 }, () => {
    let database: TestDatabase
    let runtime: Runtime
    let config: RelayConfig
    let server: ProductionServer
    let provider: FakeProvider
    let home: string
    let workdir: string

    const { admin, user: newUser } = cliDeployment(() => ({ config, runtime, url: server.url }))
    const user = (points: number) => newUser(points, 'codex')

    /** `codex exec` with only loopback reachable, configured as the guide says. */
    function codex(args: string[], key: string, timeoutMs = 90_000): Promise<{ code: number | null; output: string }> {
      const child = spawn((codexBinary as { path: string }).path, ['exec', '--skip-git-repo-check', ...args], {
        cwd: workdir,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          [codexKeyVariable]: key,
          // Anything not on loopback goes to a proxy nobody runs, and fails at once.
          HTTPS_PROXY: 'http://127.0.0.1:9',
          HTTP_PROXY: 'http://127.0.0.1:9',
          NO_PROXY: '127.0.0.1,localhost',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
      return new Promise((resolve) =>
        child.on('close', (code) => {
          clearTimeout(timer)
          resolve({ code, output })
        }),
      )
    }

    /** The user's settled calls, oldest first (waits for the settlement, which follows the stream). */
    async function callsOf(userId: string, count: number) {
      const deadline = Date.now() + 5000
      for (;;) {
        const rows = await runtime.deps.db.selectFrom('proxy_calls').selectAll().where('user_id', '=', userId).orderBy('id').execute()
        if (rows.length >= count || Date.now() > deadline) return rows
        await elapse(50)
      }
    }

    /** The seeded price of `model` applied to `usage` as OpenAI reports it: cached input apart, reasoning inside output. */
    async function priceOf(model: string, usage: FakeUsage): Promise<number> {
      const row = await runtime.deps.db.selectFrom('model_costs').selectAll().where('model', '=', model).executeTakeFirstOrThrow()
      return pointsForUsage(row, { input_tokens: usage.input_tokens, cache_read_tokens: usage.cache_read_tokens, output_tokens: usage.output_tokens })
    }

    beforeAll(async () => {
      if (!existsSync('build/server/index.js')) throw new Error('The portal build is missing: run npm run build first (npm test does).')
      database = await createTestDatabase(kind)
      const dataDir = mkdtempSync(join(tmpdir(), 'codex-suite-'))
      home = join(dataDir, 'home')
      workdir = join(dataDir, 'project')
      mkdirSync(join(home, '.codex'), { recursive: true })
      mkdirSync(workdir)
      writeFileSync(join(workdir, 'notes.txt'), 'relay notes: the answer is 42\n')
      provider = await startFakeProvider()
      provider.behaviour = { kind: 'answer', text: answerText, usage: typicalUsage }
      server = await startProductionServer(database)
      // docs/claude-code.md, word for word but for the address.
      writeFileSync(
        join(home, '.codex', 'config.toml'),
        codexConfigToml(server.url),
      )
      config = loadRelayConfig({
        PUBLIC_URL: server.url,
        DATABASE_URL: database.url,
        ...(database.searchPath ? { DATABASE_SCHEMA: database.searchPath } : {}),
        JWT_SECRET: productionSecrets.JWT_SECRET,
        PASSWORD_COST: '10',
        LOG_LEVEL: 'error',
      })
      runtime = await openRuntime(config, { logger: createLogger('error') })
      await admin('provider', 'add', '--kind', 'openai', '--base-url', `${provider.url}/v1`, '--key', 'fake-provider-secret-0000', '--models', 'gpt-*')
    }, 60_000)

    afterAll(async () => {
      if (runtime) {
        await expectLedgerInvariants(runtime.deps.db)
        await runtime.close()
      }
      await server?.stop()
      await provider?.close()
      await database?.dispose()
      if (home) rmSync(dirname(home), { recursive: true, force: true })
    })

    it('answers a plain turn with its default model, charged the seeded price applied to the reported usage, cached and reasoning tokens included', async () => {
      const alice = await user(2400)
      const before = provider.received.length
      const run = await codex(['Say something'], alice.key)
      expect(run.output).toContain(answerText)
      expect(run.code, run.output).toBe(0)
      const [request] = provider.received.slice(before)
      expect(request!.url).toBe('/v1/responses')
      expect(request!.body).toMatchObject({ model: 'gpt-6.2-sol', stream: true })
      expect(request!.headers.authorization).toBe('Bearer fake-provider-secret-0000')
      const [call] = await callsOf(alice.id, 1)
      expect(call).toMatchObject({
        api: 'responses',
        model: 'gpt-6.2-sol',
        outcome: 'completed',
        streamed: 1,
        input_tokens: typicalUsage.input_tokens,
        cache_read_tokens: typicalUsage.cache_read_tokens,
        output_tokens: typicalUsage.output_tokens,
        shortfall_points: 0,
      })
      expect(call!.points).toBe(await priceOf('gpt-6.2-sol', typicalUsage))
      expect(call!.points).toBeGreaterThan(0)
    })

    it('runs a shell tool turn: the call reaches Codex, the command’s output reaches the provider, both calls charged', async () => {
      const bob = await user(2400)
      provider.queue({ kind: 'tool_use', name: 'exec_command', input: { cmd: 'cat notes.txt' }, usage: typicalUsage })
      const before = provider.received.length
      // gpt-5.2: Codex offers it its shell as the `exec_command` function.
      const run = await codex(['-m', 'gpt-5.2', 'What does notes.txt say?'], bob.key)
      expect(run.output, run.output).toContain(answerText)
      const [toolCall, followUp] = provider.received.slice(before)
      expect(toolCall!.body.tools.map((t: { name?: string }) => t.name)).toContain('exec_command')
      const output = followUp!.body.input.find((item: { type: string }) => item.type === 'function_call_output')
      expect(output).toMatchObject({ call_id: 'call_fake_1', output: expect.stringContaining('relay notes: the answer is 42') })
      const calls = await callsOf(bob.id, 2)
      expect(calls.map((c) => [c.model, c.outcome])).toEqual([
        ['gpt-5.2', 'completed'],
        ['gpt-5.2', 'completed'],
      ])
      for (const call of calls) expect(call.points).toBe(await priceOf('gpt-5.2', typicalUsage))
    })

    it('ends with our message about the key when the key is wrong, and nothing reaches the provider', async () => {
      const before = provider.received.length
      const run = await codex(['Say something'], 'sk-relay-not-a-key')
      expect(run.code).not.toBe(0)
      expect(run.output).toContain('Invalid API key: the key is unknown or was deleted')
      expect(provider.received.length).toBe(before)
    })
  })
}
