/**
 * The real Gemini CLI (`@google/gemini-cli`) against the production server (server/main.ts, relay
 * embedded) and the loopback fake Gemini provider, with only the seeded prices, configured as
 * docs/gemini-cli.md tells a user: GOOGLE_GEMINI_BASE_URL (the relay, no path), GEMINI_API_KEY
 * and the settings.json line selecting API-key auth. The operator's steps run through the
 * operator CLI's commands, the user's through the portal's HTTP API.
 *
 * Gemini CLI never reaches anything but loopback: a temp HOME, no update checks, no usage
 * statistics or telemetry, and every other host behind a proxy that does not exist.
 *
 * Needs the portal build (`npm run build`; `npm test` builds first).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listModelCosts, PriceTable } from '../../relay/points/model-costs.ts'
import { countingHop } from '../fixtures/counting-hop.ts'
import { callsOf, cliDeployment, openCliSite, runCli, type CliSite } from '../fixtures/cli-deployment.ts'
import { databaseKinds } from '../fixtures/databases.ts'
import { defaultGeminiUsage, geminiSignature, startFakeGemini, type FakeGemini, type GeminiUsage } from '../fixtures/fake-gemini.ts'
import { geminiEnv, geminiSettings } from '../../app/utils/cli-setup.ts'

const geminiCli = join(dirname(createRequire(import.meta.url).resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js')

/** A typical Gemini CLI turn: its long system prompt and tools mostly read back from Google's implicit cache. */
const typicalUsage: GeminiUsage = { prompt: 32_000, cached: 24_000, candidates: 600, thoughts: 900 }
const answerText = 'Relayed by Gemini: 敏捷的棕色狐狸 jumps over the lazy dog.'

for (const kind of databaseKinds()) {
  describe(`Gemini CLI through the production server (${kind})`, { timeout: 180_000 }, () => {
    let site: CliSite
    let gemini: FakeGemini

    const { admin, user: newUser } = cliDeployment(() => ({ config: site.config, runtime: site.runtime, url: site.server.url }))
    const user = (points: number) => newUser(points, 'gemini cli')

    /** `gemini -p`, configured as the guide says. A headless run in a folder it has not seen asks to be trusted first. */
    const geminiRun = (args: string[], key: string, baseUrl = site.server.url, timeoutMs = 90_000) =>
      runCli(process.execPath, [geminiCli, ...args], site, { ...geminiEnv(baseUrl, key), GEMINI_CLI_TRUST_WORKSPACE: 'true' }, timeoutMs)

    /**
     * The seeded price of `model` (its own row, else its family's pattern) applied to what the
     * provider reported: cached tokens at the cache rate, thoughts as output.
     */
    async function priceOf(model: string, usage: GeminiUsage): Promise<number> {
      const cost = new PriceTable(await listModelCosts(site.runtime.deps.db)).find(model)!.cost
      const perMillion =
        (usage.prompt - usage.cached) * cost.input_points_per_mtok! + usage.cached * cost.cache_read_points_per_mtok! + (usage.candidates + usage.thoughts) * cost.output_points_per_mtok!
      return Math.ceil(perMillion / 1_000_000)
    }

    beforeAll(async () => {
      gemini = await startFakeGemini()
      site = await openCliSite(kind, 'gemini-cli')
      // The line Gemini CLI 0.61 needs besides the two variables, and no update checks or statistics.
      const settings = {
        ...geminiSettings,
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      }
      mkdirSync(join(site.home, '.gemini'))
      writeFileSync(join(site.home, '.gemini', 'settings.json'), JSON.stringify(settings))
      await admin('provider', 'add', '--kind', 'gemini', '--base-url', gemini.url, '--key', 'fake-provider-secret-0000', '--models', 'gemini-*')
    }, 60_000)

    afterAll(async () => {
      await site?.close()
      await gemini?.close()
    })

    it('answers gemini -p: the router’s call and the streamed answer, each charged the seeded price of the usage reported', async () => {
      const alice = await user(2400)
      gemini.queue({ kind: 'answer', text: answerText, usage: typicalUsage })
      const before = gemini.received.length
      const run = await geminiRun(['-p', 'Say something'], alice.key)
      expect(run.output, run.output).toContain(answerText)
      expect(run.code).toBe(0)
      const [router, answer] = gemini.received.slice(before)
      expect(router!.url).toBe('/v1beta/models/gemini-3.5-flash-lite:generateContent')
      expect(answer!.url).toMatch(/^\/v1beta\/models\/gemini-[\w.-]+:streamGenerateContent\?alt=sse$/)
      for (const request of [router!, answer!]) {
        expect(request.headers['x-goog-api-key']).toBe('fake-provider-secret-0000')
        expect(JSON.stringify(request.headers)).not.toContain(alice.key)
      }
      const model = /models\/([^:]+):/.exec(answer!.url)![1]!
      const calls = await callsOf(site, alice.id, 2)
      expect(calls.map((c) => [c.api, c.model, c.streamed, c.outcome])).toEqual([
        ['gemini', 'gemini-3.5-flash-lite', 0, 'completed'],
        ['gemini', model, 1, 'completed'],
      ])
      expect(calls[0]!.points).toBe(await priceOf('gemini-3.5-flash-lite', defaultGeminiUsage))
      expect(calls[1]).toMatchObject({ input_tokens: 8000, cache_read_tokens: 24_000, output_tokens: 1500 })
      expect(calls[1]!.points).toBe(await priceOf(model, typicalUsage))
    })

    it('runs a read_file turn: the function call, its thoughtSignature intact, reaches the CLI and the file’s text the provider; each call charged', async () => {
      const bob = await user(2400)
      gemini.queue({ kind: 'function_call', name: 'read_file', args: { file_path: join(site.workdir, 'notes.txt') }, usage: typicalUsage }, { kind: 'answer', text: answerText, usage: typicalUsage })
      const before = gemini.received.length
      const run = await geminiRun(['-p', 'What does notes.txt say?'], bob.key)
      expect(run.output, run.output).toContain(answerText)
      const requests = gemini.received.slice(before)
      const followUp = requests.at(-1)!
      const history = JSON.stringify(followUp.body.contents)
      expect(history).toContain('relay notes: the answer is 42')
      expect(history).toContain('"functionResponse"')
      expect(history).toContain(geminiSignature)
      const calls = await callsOf(site, bob.id, requests.length)
      expect(calls).toHaveLength(requests.length)
      expect(calls.every((c) => c.outcome === 'completed' && c.api === 'gemini' && c.points > 0)).toBe(true)
      const streamed = calls.filter((c) => c.streamed === 1)
      expect(streamed).toHaveLength(2)
      for (const call of streamed) {
        expect(call).toMatchObject({ input_tokens: 8000, cache_read_tokens: 24_000, output_tokens: 1500 })
        expect(call.points).toBe(await priceOf(call.model, typicalUsage))
      }
    })

    it('stops on a wrong key within 10 s of its first request (its start-up, which load can stretch, aside), with Google-shaped JSON about the key, not a page', async () => {
      const before = gemini.received.length
      const hop = await countingHop(site.server.url)
      const run = await geminiRun(['-p', 'Say something'], 'sk-not-a-real-key-000000000000000000', hop.url).finally(() => hop.close())
      expect(run.code, run.output).not.toBe(0)
      expect(hop.seen.length).toBeGreaterThan(0)
      expect(run.endedAt - hop.seen[0]!).toBeLessThan(10_000)
      expect(run.output).toMatch(/Invalid API key/)
      expect(run.output).toContain('UNAUTHENTICATED')
      expect(run.output).not.toMatch(/<html|<!DOCTYPE/i)
      expect(gemini.received.length).toBe(before)
    })
  })
}
