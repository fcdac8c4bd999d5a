/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, its native binary from the registry's
 * platform package) against the production server (server/main.ts, relay embedded) and the
 * loopback fake Anthropic provider, with only the seeded prices. The operator's steps run through
 * the operator CLI's commands, the user's through the portal's HTTP API.
 *
 * Claude Code never reaches anything but loopback: a temp HOME, no auto-updater, no
 * non-essential traffic, and every other host behind a proxy that does not exist.
 *
 * Needs the portal build (`npm run build`; `npm test` builds first).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deviceCodeGrantType, oauthEndpoints } from '../../relay/contract/oauth.ts'
import { countingHop } from '../fixtures/counting-hop.ts'
import { callsOf, cliDeployment, openCliSite, runCli, type CliSite, type CliUser } from '../fixtures/cli-deployment.ts'
import { databaseKinds } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider, type FakeUsage } from '../fixtures/fake-provider.ts'
import { elapse } from '../fixtures/time.ts'

/** The native binary, or why there is none (another platform: the lockfile carries linux-x64's alone). */
function findClaudeBinary(): { path: string } | { missing: string } {
  const platformPackage = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`
  try {
    const path = join(dirname(createRequire(import.meta.url).resolve(`${platformPackage}/package.json`)), 'claude')
    return existsSync(path) ? { path } : { missing: `${path} is absent` }
  } catch {
    return { missing: `${platformPackage} is not installed` }
  }
}
const claudeBinary = findClaudeBinary()
if ('missing' in claudeBinary) console.warn(`Claude Code suite skipped: ${claudeBinary.missing}.`)

/** What a typical Claude Code turn reports: mostly the cached system prompt and tools read back. */
const typicalUsage: FakeUsage = { input_tokens: 2000, cache_read_tokens: 20_000, cache_write_tokens: 1500, output_tokens: 600 }
const answerText = 'Relayed answer: 敏捷的棕色狐狸 jumps over the lazy dog.'

/** Claude Code's variables: the relay and the key, and none of its own traffic (updates, telemetry, error reports). */
const claudeEnv = (token: string, baseUrl: string) => ({
  ANTHROPIC_BASE_URL: baseUrl,
  ANTHROPIC_AUTH_TOKEN: token,
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
})

interface ClaudeRun {
  code: number | null
  output: string
  /** From start to exit. */
  ms: number
  /** Requests it sent to the relay, and when (performance.now()); only with `counted`. */
  requests: number[]
  /** From its first request to the relay until it exited: what it spent on a refusal, its own start-up aside. */
  msAfterFirstRequest: number
}

for (const kind of databaseKinds()) {
  // Each run of the CLI takes a second or two, several on a loaded machine.
  describe.skipIf('missing' in claudeBinary)(`Claude Code through the production server (${kind})`, { timeout: 180_000 }, () => {
    let site: CliSite
    let provider: FakeProvider
    let providerId: string
    let base: string

    const { admin, api, user: newUser } = cliDeployment(() => ({ config: site.config, runtime: site.runtime, url: base }))
    type User = CliUser
    const user = (points: number | null): Promise<User> => newUser(points, 'claude code')

    /** `claude`, with nothing of this machine's own setup; `counted` passes its requests through a hop that notes when each came. */
    async function claude(args: string[], env: { token: string; baseUrl?: string; counted?: boolean }, timeoutMs = 60_000): Promise<ClaudeRun> {
      const hop = env.counted ? await countingHop(base) : null
      try {
        const run = await runCli((claudeBinary as { path: string }).path, args, site, claudeEnv(env.token, hop?.url ?? env.baseUrl ?? base), timeoutMs)
        const requests = hop ? [...hop.seen] : []
        return { ...run, requests, msAfterFirstRequest: requests.length ? run.endedAt - requests[0]! : Number.NaN }
      } finally {
        await hop?.close()
      }
    }

    /** One request, no retries, and Claude Code gone within 10 s of it (its start-up, which load can stretch, aside). */
    function expectStoppedAtOnce(run: ClaudeRun): void {
      expect(run.code, run.output).not.toBe(0)
      expect(run.requests).toHaveLength(1)
      expect(run.msAfterFirstRequest).toBeLessThan(10_000)
    }

    /** The seeded price of `model` applied to `usage`, computed here from the price row itself. */
    async function priceOf(model: string, usage: FakeUsage): Promise<number> {
      const row = await site.runtime.deps.db.selectFrom('model_costs').selectAll().where('model', '=', model).executeTakeFirstOrThrow()
      const perMillion =
        usage.input_tokens * row.input_points_per_mtok! +
        usage.output_tokens * row.output_points_per_mtok! +
        usage.cache_read_tokens * row.cache_read_points_per_mtok! +
        usage.cache_write_tokens * row.cache_write_points_per_mtok!
      return Math.ceil(perMillion / 1_000_000)
    }

    async function balanceOf(userId: string): Promise<number> {
      const usage = await site.runtime.deps.db.selectFrom('points_ledger').select('balance_after').where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst()
      return usage?.balance_after ?? 0
    }

    beforeAll(async () => {
      provider = await startFakeProvider()
      provider.behaviour = { kind: 'answer', text: answerText, usage: typicalUsage }
      site = await openCliSite(kind, 'claude-code')
      base = site.server.url
      const added = await admin('provider', 'add', '--kind', 'anthropic', '--base-url', provider.url, '--key', 'fake-provider-secret-0000', '--models', 'claude-*')
      providerId = /\d{6,}/.exec(added)![0]
    }, 60_000)

    afterAll(async () => {
      await site?.close()
      await provider?.close()
    })

    it('answers claude -p with the default model and with --model opus|sonnet|haiku, each charged the price table applied to the usage the provider reported', async () => {
      const alice = await user(2400)
      const asked: string[] = []
      for (const model of [null, 'opus', 'sonnet', 'haiku']) {
        const before = provider.received.length
        const run = await claude(['-p', 'Say something', ...(model ? ['--model', model] : [])], { token: alice.key })
        expect(run.output, run.output).toContain(answerText)
        expect(run.code).toBe(0)
        const request = provider.received[before]!
        asked.push(request.body.model)
        // What the provider needs reached it; what identifies the user's session did not.
        expect(request.url).toBe('/v1/messages?beta=true')
        expect(request.headers['anthropic-version']).toBe('2023-06-01')
        expect(request.headers['anthropic-beta']).toContain('claude-code-20250219')
        expect(request.headers['x-api-key']).toBe('fake-provider-secret-0000')
        expect(request.headers['x-claude-code-session-id']).toBeUndefined()
        expect(request.headers['x-app']).toBeUndefined()
        expect(request.headers.authorization).toBeUndefined()
      }
      // What Claude Code 2.1.330 asks for by default and for each alias.
      expect(asked).toEqual(['claude-opus-5-5', 'claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'])
      const calls = await callsOf(site, alice.id, 4)
      expect(calls.map((c) => [c.model, c.outcome, c.streamed])).toEqual(asked.map((m) => [m, 'completed', 1]))
      for (const call of calls) {
        expect(call).toMatchObject({
          input_tokens: typicalUsage.input_tokens,
          output_tokens: typicalUsage.output_tokens,
          cache_read_tokens: typicalUsage.cache_read_tokens,
          cache_write_tokens: typicalUsage.cache_write_tokens,
          shortfall_points: 0,
          key_id: alice.keyId,
        })
        expect(call.points).toBe(await priceOf(call.model, typicalUsage))
      }
      const spent = calls.reduce((sum, call) => sum + call.points, 0)
      expect(await balanceOf(alice.id)).toBe(2400 - spent)
    })

    it('streams --output-format stream-json intact, and takes a base URL pasted with /v1', async () => {
      const bob = await user(2400)
      const run = await claude(['-p', 'Say something', '--output-format', 'stream-json', '--verbose'], { token: bob.key })
      expect(run.code).toBe(0)
      const events = run.output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { type: string; result?: string; is_error?: boolean })
      expect(events.find((e) => e.type === 'result')).toMatchObject({ is_error: false, result: answerText })

      const slashV1 = await claude(['-p', 'Say something'], { token: bob.key, baseUrl: `${base}/v1` })
      expect(slashV1.output).toContain(answerText)
      expect(await callsOf(site, bob.id, 2)).toHaveLength(2)
    })

    it('runs a tool-use turn: the tool call reaches Claude Code, its result reaches the provider, both calls charged', async () => {
      const carol = await user(2400)
      provider.queue({ kind: 'tool_use', name: 'Read', input: { file_path: join(site.workdir, 'notes.txt') }, usage: typicalUsage })
      const before = provider.received.length
      const run = await claude(['-p', 'What does notes.txt say?', '--allowedTools', 'Read'], { token: carol.key })
      expect(run.output, run.output).toContain(answerText)
      const [toolCall, followUp] = provider.received.slice(before)
      expect(toolCall!.body.tools.map((t: { name: string }) => t.name)).toContain('Read')
      expect(JSON.stringify(followUp!.body.messages)).toMatch(/tool_result[\s\S]*relay notes: the answer is 42/)
      const calls = await callsOf(site, carol.id, 2)
      expect(calls.map((c) => c.outcome)).toEqual(['completed', 'completed'])
      for (const call of calls) expect(call.points).toBe(await priceOf('claude-opus-5-5', typicalUsage))
    })

    it('serves five typical turns on a package that covers five, then stops Claude Code at once with our message', async () => {
      const typical = await priceOf('claude-opus-5-5', typicalUsage)
      const dave = await user(5 * typical)
      for (let turn = 1; turn <= 5; turn++) {
        const run = await claude(['-p', `Turn ${turn}`], { token: dave.key })
        expect(run.output, `turn ${turn}: ${run.output}`).toContain(answerText)
      }
      const calls = await callsOf(site, dave.id, 5)
      expect(calls.map((c) => c.points)).toEqual([typical, typical, typical, typical, typical])
      expect(await balanceOf(dave.id)).toBe(0)

      const before = provider.received.length
      const broke = await claude(['-p', 'One more'], { token: dave.key, counted: true })
      expectStoppedAtOnce(broke)
      expect(broke.output).toContain('Not enough points')
      expect(provider.received.length).toBe(before)
    })

    it('ends Claude Code within 10 s with our message for a deleted key and for no package', async () => {
      const erin = await user(2400)
      expect((await api('DELETE', `/api/user/api-keys/${erin.keyId}`, erin.login)).status).toBe(200)
      const deleted = await claude(['-p', 'Hello'], { token: erin.key, counted: true })
      expectStoppedAtOnce(deleted)
      expect(deleted.output).toContain('Invalid API key: the key is unknown or was deleted')

      const frank = await user(null)
      const unpackaged = await claude(['-p', 'Hello'], { token: frank.key, counted: true })
      expectStoppedAtOnce(unpackaged)
      expect(unpackaged.output).toContain('No package: redeem a code or join a team in the portal')
    })

    it('ends Claude Code within 30 s, naming the model and the fix, when every provider is disabled', async () => {
      const grace = await user(2400)
      await admin('provider', 'disable', providerId)
      try {
        // Running relays reread providers within two seconds (docs/decisions/076-the-hot-path.md).
        await elapse(2100)
        const before = provider.received.length
        const run = await claude(['-p', 'Hello'], { token: grace.key, counted: true })
        expect(run.code).not.toBe(0)
        expect(run.msAfterFirstRequest).toBeLessThan(30_000)
        expect(run.requests).toHaveLength(1)
        expect(run.output).toContain('No provider of this relay serves claude-opus-5-5')
        expect(run.output).toContain('provider add|enable')
        expect(provider.received.length).toBe(before)
      } finally {
        await admin('provider', 'enable', providerId)
        await elapse(2100)
      }
      // On record as the relay's refusal, with its reason, and charged nothing.
      const calls = await callsOf(site, grace.id, 1)
      expect(calls.map(({ outcome, refusal, status, points }) => ({ outcome, refusal, status, points: Number(points) }))).toEqual([
        { outcome: 'refused', refusal: 'no_provider', status: 503, points: 0 },
      ])
    })

    it('signs a CLI in by the device flow of docs/oauth.md: its api token makes charged calls, its profile-only token is refused with 403', async () => {
      const hana = await user(2400)
      const clientId = /client_id=(\S+)/.exec(await admin('client', 'create', '--name', 'Relay CLI'))![1]!
      async function deviceToken(scope: string): Promise<string> {
        const started = await api('GET', `${oauthEndpoints.deviceCode.path}?client_id=${clientId}&scope=${encodeURIComponent(scope)}`, null)
        expect(started.status).toBe(200)
        // The user approves the code in the portal (its device-code screen posts this).
        expect((await api('POST', oauthEndpoints.authorize.path, hana.login, { device_code: started.body.data.device_code, decision: 'approve' })).status).toBe(200)
        const tokens = await api('POST', oauthEndpoints.token.path, null, { grant_type: deviceCodeGrantType, device_secret: started.body.data.device_secret, client_id: clientId })
        expect(tokens.status, JSON.stringify(tokens.body)).toBe(200)
        expect(tokens.body.data.scope).toBe(scope)
        return tokens.body.data.access_token
      }

      const apiToken = await deviceToken('profile api')
      const byCurl = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiToken}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] }),
      })
      expect(byCurl.status).toBe(200)
      expect(await byCurl.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: answerText }] })
      const byClaude = await claude(['-p', 'Hello'], { token: apiToken })
      expect(byClaude.output).toContain(answerText)
      const calls = await callsOf(site, hana.id, 2)
      expect(calls.map((c) => [c.model, c.key_id, c.client_id])).toEqual([
        ['claude-sonnet-5-5', null, clientId],
        ['claude-opus-5-5', null, clientId],
      ])
      expect(calls[0]!.points).toBe(await priceOf('claude-sonnet-5-5', typicalUsage))
      expect(await balanceOf(hana.id)).toBe(2400 - calls[0]!.points - calls[1]!.points)
      const usage = await api('GET', '/api/v1/usage', apiToken)
      expect(usage.body.data).toMatchObject({ key: null, client_id: clientId, user: { username: hana.username }, points: { balance: 2400 - calls[0]!.points - calls[1]!.points } })

      const profileToken = await deviceToken('profile')
      const refused = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${profileToken}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] }),
      })
      expect(refused.status).toBe(403)
      expect(refused.headers.get('x-should-retry')).toBe('false')
      expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('permission_error')
      const usageRefused = await api('GET', '/api/v1/usage', profileToken)
      expect(usageRefused.status).toBe(403)
      expect(usageRefused.body.error.details).toEqual({ reason: 'insufficient_scope', required_scope: 'api' })
      const byClaudeRefused = await claude(['-p', 'Hello'], { token: profileToken, counted: true })
      expectStoppedAtOnce(byClaudeRefused)
      expect(byClaudeRefused.output).toContain('not granted the api scope')
      // Each refusal is recorded as the client's call (its body never read, so no model), charged nothing.
      const after = await callsOf(site, hana.id, 2)
      expect(after.filter((c) => c.outcome !== 'refused')).toHaveLength(2)
      expect(after.filter((c) => c.outcome === 'refused').every((c) => c.points === 0 && c.client_id === clientId)).toBe(true)
    })
  })
}
