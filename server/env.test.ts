import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EnvironmentError, prepareEnvironment } from './env.ts'

const saved = { ...process.env }
const secrets = { SESSION_SECRET: 's'.repeat(40), JWT_SECRET: 'j'.repeat(40) }

function prepareWith(env: Record<string, string>) {
  process.env = { PATH: saved.PATH, ...env }
  return prepareEnvironment(mkdtempSync(join(tmpdir(), 'env-test-')))
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    prepareWith(env)
  } catch (error) {
    expect(error).toBeInstanceOf(EnvironmentError)
    return (error as EnvironmentError).message.split('\n')
  }
  throw new Error('the environment was accepted')
}

afterEach(() => {
  process.env = { ...saved }
})

describe('the environment', () => {
  it('names every bad value on a line of its own, the portal\'s and the embedded relay\'s together', () => {
    const lines = problemsOf({ ...secrets, RELAY_PUBLIC_URL: 'not a url', PORT: 'eighty', JWT_SECRET: 'short', TRUST_PROXY: 'maybe' })
    expect(lines).toHaveLength(4)
    for (const name of ['RELAY_PUBLIC_URL', 'PORT', 'JWT_SECRET', 'TRUST_PROXY']) {
      expect(lines.filter((line) => line.startsWith(`Invalid environment: ${name}: `))).toHaveLength(1)
    }
  })

  it('requires the secrets in production and generates them for a try-out', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'Invalid environment: SESSION_SECRET: required in production (32+ characters; comma-separated to rotate)',
      'Invalid environment: JWT_SECRET: required when NODE_ENV=production',
    ])
    const environment = prepareWith({})
    expect(environment.portal.SESSION_SECRET).toHaveLength(64)
    expect(environment.relay?.jwtSecrets[0]).toBeTruthy()
  })

  it('embeds no relay when RELAY_URL names one elsewhere, and then does not ask for its secrets', () => {
    const environment = prepareWith({ NODE_ENV: 'production', SESSION_SECRET: secrets.SESSION_SECRET, RELAY_URL: 'https://relay.example.com' })
    expect(environment.relay).toBeUndefined()
  })

  it('keeps the production server from starting, with one clear line for one bad value', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { PATH: saved.PATH, ...secrets, PORT: '3999', RELAY_PUBLIC_URL: 'not a url' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.status).toBe(1)
    expect(run.stderr.trim()).toBe('Invalid environment: RELAY_PUBLIC_URL: must be the address CLI clients are pointed at, an http(s):// URL')
  })
})
