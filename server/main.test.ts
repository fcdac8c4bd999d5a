import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

describe('the production server', () => {
  it('does not start with a bad value, and says which in one line', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { PATH: process.env.PATH, SESSION_SECRET: 's'.repeat(40), JWT_SECRET: 'j'.repeat(40), PORT: '3999', RELAY_PUBLIC_URL: 'not a url' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.status).toBe(1)
    expect(run.stderr.trim()).toBe('Invalid environment: RELAY_PUBLIC_URL: must be the address CLI clients are pointed at, an http(s):// URL')
  })
})
