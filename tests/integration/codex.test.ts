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
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pointsForUsage } from '../../relay/points/model-costs.ts'
import { callsOf, cliDeployment, openCliSite, runCli, type CliSite } from '../fixtures/cli-deployment.ts'
import { databaseKinds } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider, type FakeUsage } from '../fixtures/fake-provider.ts'
import { codexConfigToml, codexKeyVariable } from '../../app/utils/cli-setup.ts'

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
    let site: CliSite
    let provider: FakeProvider

    const { admin, user: newUser } = cliDeployment(() => ({ config: site.config, runtime: site.runtime, url: site.server.url }))
    const user = (points: number) => newUser(points, 'codex')

    /** `codex exec`, configured as the guide says. */
    const codex = (args: string[], key: string, timeoutMs = 90_000) =>
      runCli((codexBinary as { path: string }).path, ['exec', '--skip-git-repo-check', ...args], site, { [codexKeyVariable]: key }, timeoutMs)

    /** The seeded price of `model` applied to `usage` as OpenAI reports it: cached input apart, reasoning inside output. */
    async function priceOf(model: string, usage: FakeUsage): Promise<number> {
      const row = await site.runtime.deps.db.selectFrom('model_costs').selectAll().where('model', '=', model).executeTakeFirstOrThrow()
      return pointsForUsage(row, { input_tokens: usage.input_tokens, cache_read_tokens: usage.cache_read_tokens, output_tokens: usage.output_tokens })
    }

    beforeAll(async () => {
      provider = await startFakeProvider()
      provider.behaviour = { kind: 'answer', text: answerText, usage: typicalUsage }
      site = await openCliSite(kind, 'codex')
      // docs/claude-code.md, word for word but for the address.
      mkdirSync(join(site.home, '.codex'))
      writeFileSync(join(site.home, '.codex', 'config.toml'), codexConfigToml(site.server.url))
      await admin('provider', 'add', '--kind', 'openai', '--base-url', `${provider.url}/v1`, '--key', 'fake-provider-secret-0000', '--models', 'gpt-*')
    }, 60_000)

    afterAll(async () => {
      await site?.close()
      await provider?.close()
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
      const [call] = await callsOf(site, alice.id, 1)
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
      const calls = await callsOf(site, bob.id, 2)
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
