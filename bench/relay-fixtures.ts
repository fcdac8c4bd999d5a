/**
 * What the relay benchmarks (bench/relay.ts, bench/streams.ts) share: child processes started as
 * in production, users with packages and keys and priced models with their providers set up as an
 * operator would, the CPU time of a process, and the ledger's invariants checked after a run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { sql } from 'kysely'
import { relayConfigSchema } from '../relay/config.ts'
import { createApiKey } from '../relay/keys/service.ts'
import { createLogger } from '../relay/logger.ts'
import { setModelCost } from '../relay/points/model-costs.ts'
import { ProviderKeyBox } from '../relay/proxy/provider-keys.ts'
import { addProvider } from '../relay/proxy/providers.ts'
import { openRuntime } from '../relay/runtime.ts'
import { createServices } from '../relay/create-services.ts'
import { createPackage } from '../relay/subscriptions/packages.ts'
import { createRedeemCodes, redeemCode } from '../relay/subscriptions/redeem-codes.ts'
import { insertUser } from '../relay/users/users.ts'
import type { TestDatabase } from '../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../tests/fixtures/ledger.ts'

export const jwtSecret = 'bench-jwt-secret-0123456789abcdef0123456789abcdef'
const children: ChildProcess[] = []

process.on('exit', () => {
  for (const child of children) child.kill()
})

export interface Child {
  url: string
  pid: number
  /** Ends it with SIGTERM (a relay then settles what it holds). */
  stop(): Promise<void>
}

/** Starts a child process (`node --import tsx …args`) and resolves with the first URL it prints. */
export function startChild(args: string[], env: NodeJS.ProcessEnv, listening = 1): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = () => (child.kill('SIGTERM'), exited)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
    let seen = 0
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = line.match(/https?:\/\/\S+/)?.[0]
      // A relay's workers print one line each.
      if (url && ++seen === listening) resolve({ url: url.replace('localhost', '127.0.0.1'), pid: child.pid!, stop })
    })
  })
}

/**
 * `users` users, each with a large package and an API key, and each of `models` priced as a
 * variable-cost model and served by its provider (as Anthropic, and as OpenAI under its /v1 for
 * the Responses API), as an operator sets them up; returns the keys.
 */
export async function prepare(database: TestDatabase, models: ReadonlyArray<readonly [model: string, baseUrl: string]>, users: number): Promise<string[]> {
  const config = relayConfigSchema.parse({ databaseUrl: database.url, databaseSchema: database.searchPath, jwtSecrets: [jwtSecret], logLevel: 'error' })
  const runtime = await openRuntime(config, { logger: createLogger('error') })
  const services = createServices(runtime.deps)
  const { db, clock } = services
  const now = clock.now()
  try {
    await createPackage(db, now, { code: 'BENCH', name: 'bench', kind: 'personal', points_limit: 100_000_000, hour_points: 0, validity_days: 3650 })
    const { codes } = await createRedeemCodes(db, now, { packageCode: 'BENCH', count: users })
    const keys: string[] = []
    for (const [i, code] of codes.entries()) {
      const user = await insertUser(db, now, { username: `bench${i}`, email: `bench${i}@example.com`, passwordHash: 'unused' })
      await redeemCode(services, { userId: user.id, clientIp: `10.0.${i}.1` }, code.replaceAll('-', ''))
      keys.push((await createApiKey(db, clock, user.id, 'bench')).key)
    }
    const box = new ProviderKeyBox([jwtSecret])
    for (const [model, baseUrl] of models) {
      await setModelCost(db, now, { model, kind: 'variable', input_points_per_mtok: 300, output_points_per_mtok: 1500 })
      await addProvider(db, box, now, { kind: 'anthropic', baseUrl, key: 'bench-provider-key-0000', models: [model] })
      await addProvider(db, box, now, { kind: 'openai', baseUrl: `${baseUrl}/v1`, key: 'bench-provider-key-0000', models: [model] })
    }
    return keys
  } finally {
    await runtime.close()
  }
}

/** User + system CPU time of processes and their children (Linux /proc), in ms; null without any. */
export function cpuTimeMs(pids: readonly number[]): number | null {
  if (pids.length === 0) return null
  try {
    let total = 0
    for (const pid of pids) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()
      if (children) total += cpuTimeMs(children.split(' ').map(Number)) ?? 0
    }
    return total
  } catch {
    return null
  }
}

/**
 * The PostgreSQL server's main process, when it runs on this machine: the parent of a backend of
 * `database` (its CPU then counts every backend and background process, cpuTimeMs); null for a
 * server elsewhere.
 */
export async function localPostgresPid(database: TestDatabase): Promise<number | null> {
  const db = database.open()
  try {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)
    // Read while the connection is open: its backend exits with it.
    return postgresServerOf(rows[0]!.pid)
  } finally {
    await db.destroy()
  }
}

function postgresServerOf(backend: number): number | null {
  try {
    const parent = Number(readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])
    return readFileSync(`/proc/${parent}/comm`, 'utf8').trim() === 'postgres' ? parent : null
  } catch {
    // No such process here: the server runs on another machine.
    return null
  }
}

/** The ledger's invariants over everything the run wrote, once every relay has settled and stopped. */
export async function checkLedger(database: TestDatabase): Promise<void> {
  const db = database.open()
  try {
    await expectLedgerInvariants(db)
    const calls = await db.selectFrom('proxy_calls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const open = await db.selectFrom('points_holds').select((eb) => eb.fn.countAll<number>().as('n')).where('settled_timestamp', 'is', null).executeTakeFirstOrThrow()
    if (Number(open.n) !== 0) throw new Error(`${open.n} holds left open after every relay stopped`)
    console.log(`Ledger invariants hold over ${calls.n} recorded calls (balances, rows in commit order, frozen points, no hold left open).`)
  } finally {
    await db.destroy()
  }
}
