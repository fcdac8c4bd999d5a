/**
 * `npm start` under a supervisor: a SIGTERM or SIGINT to any process of the start chain (npm, or
 * the node process it runs) stops the server cleanly, letting a call in flight finish; and when
 * npm is killed outright, the server does not stay orphaned on its port. Needs the portal build
 * (`npm test` makes it first), so `npm start` goes straight to serving.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { unusedPort } from '../fixtures/ports.ts'
import { productionSecrets } from '../fixtures/production-server.ts'
import { elapse } from '../fixtures/time.ts'

interface Started {
  npm: ChildProcess
  /** The node process npm runs: the server. */
  serverPid: number
  url: string
  output: () => string
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function npmStart(database: TestDatabase): Promise<Started> {
  const port = await unusedPort()
  const url = `http://127.0.0.1:${port}`
  const npm = spawn('npm', ['start'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...productionSecrets },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const chunks: string[] = []
  npm.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()))
  npm.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()))
  const deadline = Date.now() + 60_000
  while (!(await fetch(`${url}/resources/health`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || npm.exitCode !== null) throw new Error(`npm start did not serve:\n${chunks.join('')}`)
    await elapse(200)
  }
  const children = readFileSync(`/proc/${npm.pid}/task/${npm.pid}/children`, 'utf8').trim().split(/\s+/).map(Number)
  expect(children).toHaveLength(1)
  return { npm, serverPid: children[0]!, url, output: () => chunks.join('') }
}

/**
 * A GET sent whole over a connection the server has already accepted (a keep-alive one, opened by
 * a first request), so it is in flight whenever a signal comes next: a fetch begun just before
 * the signal may not have connected yet, and a server no longer listening refuses it.
 */
async function callInFlight(url: string, path: string): Promise<{ answered: Promise<number> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = (target: string) => {
    const request = http.get(`${url}${target}`, { agent })
    const answered = new Promise<number>((resolve, reject) => {
      request.on('response', (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode!))
      })
      request.on('error', reject)
    })
    return { request, answered }
  }
  expect(await get('/resources/health').answered).toBe(200)
  const call = get(path)
  await new Promise((resolve) => call.request.on('finish', resolve))
  return { answered: call.answered.finally(() => agent.destroy()) }
}

async function expectStopped({ serverPid, url }: Started): Promise<void> {
  await expect.poll(() => isRunning(serverPid), { timeout: 15_000, interval: 100 }).toBe(false)
  expect(await fetch(`${url}/resources/health`).then(() => 'answered', () => 'refused')).toBe('refused')
}

describe('npm start under a supervisor', () => {
  let database: TestDatabase
  let started: Started | undefined

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
  })

  afterEach(async () => {
    if (started && isRunning(started.serverPid)) process.kill(started.serverPid, 'SIGKILL')
    started = undefined
  })

  it('SIGTERM to npm stops the server, and a call in flight still gets its answer', async () => {
    started = await npmStart(database)
    // A page render is a call in flight that needs the relay and the database to the end.
    const inFlight = await callInFlight(started.url, '/auth/login')
    started.npm.kill('SIGTERM')
    expect(await inFlight.answered).toBe(200)
    await expectStopped(started)
  }, 90_000)

  it('SIGINT to npm (Ctrl-C) stops the server', async () => {
    started = await npmStart(database)
    started.npm.kill('SIGINT')
    await expectStopped(started)
  }, 90_000)

  it('SIGTERM to the server process itself stops it, and npm with it', async () => {
    started = await npmStart(database)
    const npmExited = new Promise((resolve) => started!.npm.once('exit', resolve))
    process.kill(started.serverPid, 'SIGTERM')
    await expectStopped(started)
    await npmExited
  }, 90_000)

  it('npm killed outright (SIGKILL) does not leave the server orphaned on its port', async () => {
    started = await npmStart(database)
    started.npm.kill('SIGKILL')
    await expectStopped(started)
  }, 90_000)
})
