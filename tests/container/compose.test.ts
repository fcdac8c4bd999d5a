/**
 * compose.yaml as an operator's engine reads it: it must resolve, with its secrets given, into
 * PostgreSQL, two relays and a portal pointed at them. Runs with whichever compose implementation
 * here has `config`: docker compose, podman compose, docker-compose (1.29 as Debian packages it)
 * or podman-compose 1.0.6 and later.
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const candidates = [['docker', 'compose'], ['podman', 'compose'], ['docker-compose'], ['podman-compose']]
const compose = candidates.find(([command, ...args]) =>
  ['version', 'config --help'].every((sub) => spawnSync(command!, [...args, ...sub.split(' ')]).status === 0),
)
const reason = 'skipped: no compose implementation with `config` is installed (docker compose, podman compose, docker-compose, podman-compose ≥ 1.0.6)'

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

  // Bringing the services up needs the postgres image and an engine that runs health checks for
  // depends_on (podman does so only under systemd): neither is on CI's machine, where no registry
  // is reachable. tests/container/container.test.ts runs the image itself.
  it.todo('brings PostgreSQL, both relays and the portal up healthy')

  it('refuses to resolve without its secrets', () => {
    const { JWT_SECRET: _, ...withoutJwtSecret } = settings
    const resolved = config(withoutJwtSecret)
    expect(resolved.status).not.toBe(0)
    expect(resolved.stderr).toContain('set JWT_SECRET')
  })
})
