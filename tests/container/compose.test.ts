/**
 * compose.yaml as an operator's engine reads it: it must resolve, with its secrets given, into
 * PostgreSQL, two relays and a portal pointed at them. Runs with whichever compose implementation
 * here has `config`: docker compose, podman compose, docker-compose (1.29 as Debian packages it)
 * or podman-compose 1.0.6 and later. Where an engine and the images are here (CI builds a
 * PostgreSQL stand-in with scripts/container/postgres-image.sh), the services are brought up too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { unusedPort } from '../fixtures/ports.ts'
import { buildImage, containers, engine, image } from './engine.ts'

const candidates = [['docker', 'compose'], ['podman', 'compose'], ['docker-compose'], ['podman-compose']]
const compose = candidates.find(([command, ...args]) =>
  ['version', 'config --help'].every((sub) => spawnSync(command!, [...args, ...sub.split(' ')]).status === 0),
)
const reason = 'skipped: no compose implementation with `config` is installed (docker compose, podman compose, docker-compose, podman-compose ≥ 1.0.6)'

/** Why the services cannot be brought up here, if they cannot: no engine, no images, no compose that talks to it. */
const upReason = ((): { ok: true } | { ok: false; why: string } => {
  if (!engine) return { ok: false, why: 'skipped: neither podman nor docker is installed' }
  if (!compose || compose[0] === 'podman-compose') return { ok: false, why: 'skipped: no docker compose or docker-compose to drive the engine' }
  if (spawnSync(engine, ['image', 'exists', 'docker.io/library/postgres:15-bookworm']).status !== 0 && spawnSync(engine, ['image', 'inspect', 'docker.io/library/postgres:15-bookworm']).status !== 0) {
    return { ok: false, why: 'skipped: no postgres:15-bookworm image (CI builds one: scripts/container/postgres-image.sh)' }
  }
  return { ok: true }
})()

const project = `relaycompose${process.pid}`

/**
 * `compose up -d`, waiting for every health check its depends_on asks for. Podman runs a
 * container's health checks from systemd timers, which a CI machine without systemd lacks: the
 * compose tool then waits forever. So, with podman, the test runs each of the project's checks
 * itself every second (`podman healthcheck run`, which records the result as the timer would),
 * through podman's Docker-compatible socket that docker-compose drives.
 */
async function composeUp(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  let service: ChildProcess | null = null
  let socket: string | null = null
  const environment: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }
  if (engine === 'podman') {
    socket = join(tmpdir(), `${project}.sock`)
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' })
    await vi.waitFor(() => expect(spawnSync('test', ['-S', socket!]).status).toBe(0), { timeout: 10_000, interval: 100 })
    environment.DOCKER_HOST = `unix://${socket}`
  }
  const checks = engine === 'podman'
    ? setInterval(() => {
        const names = spawnSync('podman', ['ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Names}}'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)
        for (const name of names) spawn('podman', ['healthcheck', 'run', name], { stdio: 'ignore' })
      }, 1000)
    : null
  downs.push(() => {
    if (checks) clearInterval(checks)
    const [command, ...args] = compose!
    spawnSync(command!, [...args, '--project-name', project, '--file', 'compose.yaml', 'down', '--volumes', '--timeout', '5'], { env: environment })
    service?.kill()
    if (socket) rmSync(socket, { force: true })
  })
  const [command, ...args] = compose!
  const up = spawn(command!, [...args, '--project-name', project, '--file', 'compose.yaml', 'up', '--detach'], { env: environment })
  let output = ''
  up.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  up.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => up.on('close', resolve))
  return { code, output }
}

const downs: Array<() => void> = []
afterAll(() => {
  for (const down of downs) down()
})

describe.skipIf(!compose)(`compose.yaml${compose ? ` (${compose.join(' ')})` : ` (${reason})`}`, () => {
  const settings = {
    POSTGRES_PASSWORD: 'compose-test-postgres-password',
    JWT_SECRET: 'compose-test-jwt-secret-0123456789abcdef0123',
    SESSION_SECRET: 'compose-test-session-secret-0123456789abcdef',
    PUBLIC_URL: 'https://portal.example.com',
    RELAY_PUBLIC_URL: 'https://relay.example.com',
  }

  function config(env: Record<string, string>) {
    const [command, ...args] = compose!
    return spawnSync(command!, [...args, '--file', 'compose.yaml', 'config'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } })
  }

  it('resolves into PostgreSQL, two relays on it and a portal pointed at them', () => {
    const resolved = config(settings)
    expect(resolved.status).toBe(0)
    for (const service of ['postgres:', 'relay-1:', 'relay-2:', 'portal:']) expect(resolved.stdout).toContain(service)
    expect(resolved.stdout).toContain(`postgres://relay:${settings.POSTGRES_PASSWORD}@postgres:5432/relay`)
    expect(resolved.stdout).toContain('RELAY_URL: http://relay:3000')
  })

  it.skipIf(!upReason.ok)(`brings PostgreSQL, both relays and the portal up healthy${upReason.ok ? '' : ` (${upReason.why})`}`, async () => {
    buildImage()
    const ports = { PORTAL_PORT: await unusedPort(), RELAY_1_PORT: await unusedPort(), RELAY_2_PORT: await unusedPort() }
    const env = {
      ...settings,
      PUBLIC_URL: `http://127.0.0.1:${ports.PORTAL_PORT}`,
      RELAY_PUBLIC_URL: `http://127.0.0.1:${ports.RELAY_1_PORT}`,
      RELAY_PORTAL_IMAGE: image,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    }
    const up = await composeUp(env)
    expect(up.code, up.output).toBe(0)
    const states = containers('ps', '--all', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Names}} {{.Status}}')
    for (const service of ['postgres', 'relay-1', 'relay-2', 'portal']) expect(states).toMatch(new RegExp(`${project}_${service}_1 Up`))

    // Each relay answers on its own port, and both reach PostgreSQL.
    for (const port of [ports.RELAY_1_PORT, ports.RELAY_2_PORT]) {
      await vi.waitFor(async () => expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200), { timeout: 30_000, interval: 250 })
    }
    // The portal renders the price list it reads from the relays, which read it from PostgreSQL. The
    // engine starts it only once both relays' health checks have passed (every 10 s, after a start
    // period): well after they first answer on a busy machine.
    await vi.waitFor(
      async () => {
        const pricing = await fetch(`http://127.0.0.1:${ports.PORTAL_PORT}/pricing`)
        expect(pricing.status).toBe(200)
        expect(await pricing.text()).toContain('claude-sonnet')
      },
      { timeout: 120_000, interval: 500 },
    )
  }, 900_000)

  it('refuses to resolve without its secrets', () => {
    const { JWT_SECRET: _, ...withoutJwtSecret } = settings
    const resolved = config(withoutJwtSecret)
    expect(resolved.status).not.toBe(0)
    expect(resolved.stderr).toContain('set JWT_SECRET')
  })
})
