/**
 * `npm start` on a fresh clone builds first: the console says so in a line or two and where the
 * build's output went, instead of printing the build's ~60 lines of progress and warnings; a
 * failed build shows its end. Runs scripts/start.ts as a process with the `npm` it calls
 * replaced by a stand-in (the outside world) that prints like the build and then puts the
 * real build (`npm run build` first) in place, so the real server starts from it.
 */
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unusedPort } from '../fixtures/ports.ts'

const realBuild = resolve(process.env.BUILD_DIR ?? 'build')

interface Started {
  code: number | null
  stdout: string
  stderr: string
}

describe('the first npm start', () => {
  let dir: string
  // Inside the project, where the build finds node_modules (build-*/ and *.log are ignored by git).
  const buildDirs = ['ok', 'failing'].map((name) => resolve(`build-start-test-${process.pid}-${name}`))
  beforeAll(() => {
    if (!existsSync(join(realBuild, 'server/index.js'))) throw new Error('No portal build: run `npm run build` first.')
    dir = mkdtempSync(join(tmpdir(), 'relay-start-'))
    // Stands in for `npm run build`: as chatty as the real one, then the real build in BUILD_DIR.
    fakeNpm(dir)
  })
  afterAll(() => {
    for (const path of [dir, ...buildDirs, ...buildDirs.map((b) => `${b}.log`)]) rmSync(path, { recursive: true, force: true })
  })

  /** Runs scripts/start.ts until the portal listens (then stops it) or it exits. */
  async function start(buildDir: string, env: Record<string, string> = {}): Promise<Started> {
    const port = await unusedPort()
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      detached: true,
      env: {
        ...process.env,
        PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
        BUILD_DIR: buildDir,
        REAL_BUILD: realBuild,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, `${port}.sqlite`),
        SESSION_SECRET: 's'.repeat(40),
        JWT_SECRET: 'j'.repeat(40),
        NODE_ENV: '',
        ...env,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      // The whole process group: start.ts and the server it runs.
      if (stdout.includes('Portal listening')) process.kill(-child.pid!, 'SIGTERM')
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((done) => child.on('exit', done))
    return { code, stdout, stderr }
  }

  it('says it is building and where the output goes, in a line or two, then starts', async () => {
    const buildDir = buildDirs[0]!
    const run = await start(buildDir)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`Building the portal (the build is missing or older than its sources); this takes a minute or two. Its output: ${buildDir}.log`)
    expect(lines[1]).toMatch(/^Built in \d+ s\.$/)
    expect(lines.at(-1)).toMatch(/^Portal listening on http:\/\/localhost:\d+/)
    expect(lines.length).toBeLessThanOrEqual(5)
    expect(run.stdout + run.stderr).not.toContain('vite build line')
    const log = readFileSync(`${buildDir}.log`, 'utf8')
    expect(log).toContain('vite build line 59')
    expect(log).toContain('a bundler warning')
  }, 60_000)

  it('shows the end of a failed build and exits with its status', async () => {
    const buildDir = buildDirs[1]!
    const run = await start(buildDir, { FAIL_BUILD: '1' })
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('vite build line')
    expect(run.stderr).toContain('vite build line 59')
    expect(run.stderr).not.toContain('vite build line 10\n')
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`The build failed (its whole output is in ${buildDir}.log).`)
  }, 60_000)
})

describe('npm ci', () => {
  it('shows install scripts as they run (better-sqlite3 compiling where no binary can be downloaded), without node-gyp’s chatter', () => {
    const config = (key: string) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    expect(config('foreground-scripts')).toBe('true')
    expect(config('loglevel')).toBe('warn')
  })
})

function fakeNpm(dir: string): void {
  const bin = join(dir, 'bin')
  mkdirSync(bin)
  const script = join(bin, 'npm')
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      'i=0; while [ $i -lt 60 ]; do echo "vite build line $i"; i=$((i+1)); done',
      'echo "a bundler warning" >&2',
      '[ -n "$FAIL_BUILD" ] && exit 1',
      'mkdir -p "$BUILD_DIR" && cp -r "$REAL_BUILD"/. "$BUILD_DIR"/',
      '',
    ].join('\n'),
  )
  chmodSync(script, 0o755)
}
