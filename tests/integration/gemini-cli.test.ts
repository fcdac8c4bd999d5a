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
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadRelayConfig, type RelayConfig } from '../../relay/config.ts'
import { createLogger } from '../../relay/logger.ts'
import { listModelCosts, PriceTable } from '../../relay/points/model-costs.ts'
import { openRuntime, type Runtime } from '../../relay/runtime.ts'
import { countingHop } from '../fixtures/counting-hop.ts'
import { cliDeployment } from '../fixtures/cli-deployment.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../fixtures/databases.ts'
import { defaultGeminiUsage, geminiSignature, startFakeGemini, type FakeGemini, type GeminiUsage } from '../fixtures/fake-gemini.ts'
import { expectLedgerInvariants } from '../fixtures/ledger.ts'
import { productionSecrets, startProductionServer, type ProductionServer } from '../fixtures/production-server.ts'
import { geminiEnv, geminiSettings } from '../../app/utils/cli-setup.ts'
import { elapse } from '../fixtures/time.ts'

const geminiCli = join(dirname(createRequire(import.meta.url).resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js')

/** A typical Gemini CLI turn: its long system prompt and tools mostly read back from Google's implicit cache. */
const typicalUsage: GeminiUsage = { prompt: 32_000, cached: 24_000, candidates: 600, thoughts: 900 }
const answerText = 'Relayed by Gemini: 敏捷的棕色狐狸 jumps over the lazy dog.'

interface GeminiRun {
  code: number | null
  output: string
  /** When it exited (performance.now()). */
  endedAt: number
}

for (const kind of databaseKinds()) {
  describe(`Gemini CLI through the production server (${kind})`, { timeout: 180_000 }, () => {
    let database: TestDatabase
    let runtime: Runtime
    let config: RelayConfig
    let server: ProductionServer
    let gemini: FakeGemini
    let home: string
    let workdir: string

    const { admin, user: newUser } = cliDeployment(() => ({ config, runtime, url: server.url }))
    const user = (points: number) => newUser(points, 'gemini cli')

    /** `gemini -p` with only loopback reachable and nothing of this machine's own setup. */
    function geminiRun(args: string[], key: string, baseUrl = server.url, timeoutMs = 90_000): Promise<GeminiRun> {
      const child = spawn(process.execPath, [geminiCli, ...args], {
        cwd: workdir,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          ...geminiEnv(baseUrl, key),
          // A headless run in a folder it has not seen asks to be trusted first.
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
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
          resolve({ code, output, endedAt: performance.now() })
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

    /**
     * The seeded price of `model` (its own row, else its family's pattern) applied to what the
     * provider reported: cached tokens at the cache rate, thoughts as output.
     */
    async function priceOf(model: string, usage: GeminiUsage): Promise<number> {
      const cost = new PriceTable(await listModelCosts(runtime.deps.db)).find(model)!.cost
      const perMillion =
        (usage.prompt - usage.cached) * cost.input_points_per_mtok! + usage.cached * cost.cache_read_points_per_mtok! + (usage.candidates + usage.thoughts) * cost.output_points_per_mtok!
      return Math.ceil(perMillion / 1_000_000)
    }

    beforeAll(async () => {
      if (!existsSync('build/server/index.js')) throw new Error('The portal build is missing: run npm run build first (npm test does).')
      database = await createTestDatabase(kind)
      const dataDir = mkdtempSync(join(tmpdir(), 'gemini-cli-suite-'))
      home = join(dataDir, 'home')
      workdir = join(dataDir, 'project')
      mkdirSync(join(home, '.gemini'), { recursive: true })
      mkdirSync(workdir)
      writeFileSync(join(workdir, 'notes.txt'), 'relay notes: the answer is 42\n')
      // The line Gemini CLI 0.61 needs besides the two variables, and no update checks or statistics.
      const settings = {
        ...geminiSettings,
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      }
      writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings))
      gemini = await startFakeGemini()
      server = await startProductionServer(database)
      config = loadRelayConfig({
        PUBLIC_URL: server.url,
        DATABASE_URL: database.url,
        ...(database.searchPath ? { DATABASE_SCHEMA: database.searchPath } : {}),
        JWT_SECRET: productionSecrets.JWT_SECRET,
        PASSWORD_COST: '10',
        LOG_LEVEL: 'error',
      })
      runtime = await openRuntime(config, { logger: createLogger('error') })
      await admin('provider', 'add', '--kind', 'gemini', '--base-url', gemini.url, '--key', 'fake-provider-secret-0000', '--models', 'gemini-*')
    }, 60_000)

    afterAll(async () => {
      if (runtime) {
        await expectLedgerInvariants(runtime.deps.db)
        await runtime.close()
      }
      await server?.stop()
      await gemini?.close()
      await database?.dispose()
      if (home) rmSync(dirname(home), { recursive: true, force: true })
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
      const calls = await callsOf(alice.id, 2)
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
      gemini.queue({ kind: 'function_call', name: 'read_file', args: { file_path: join(workdir, 'notes.txt') }, usage: typicalUsage }, { kind: 'answer', text: answerText, usage: typicalUsage })
      const before = gemini.received.length
      const run = await geminiRun(['-p', 'What does notes.txt say?'], bob.key)
      expect(run.output, run.output).toContain(answerText)
      const requests = gemini.received.slice(before)
      const followUp = requests.at(-1)!
      const history = JSON.stringify(followUp.body.contents)
      expect(history).toContain('relay notes: the answer is 42')
      expect(history).toContain('"functionResponse"')
      expect(history).toContain(geminiSignature)
      const calls = await callsOf(bob.id, requests.length)
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
      const hop = await countingHop(server.url)
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
