import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadRelayConfig } from './config.ts'

const secret = 's'.repeat(32)

describe('relay configuration', () => {
  it('applies the defaults', () => {
    expect(loadRelayConfig({ JWT_SECRET: secret })).toMatchObject({
      databaseUrl: 'data/relay.sqlite',
      jwtSecrets: [secret],
      mailFrom: 'SwiftRelay <no-reply@localhost>',
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      trustProxy: false,
      accessTokenTtlSeconds: 7200,
      refreshTokenTtlSeconds: 2_592_000,
      refreshReuseGraceSeconds: 30,
      emailCodeTtlSeconds: 600,
      emailCodeMaxAttempts: 5,
    })
  })

  it('reads rotation secrets, booleans and numbers from the environment', () => {
    const config = loadRelayConfig({
      JWT_SECRET: ` ${secret}, ${'t'.repeat(40)} `,
      TRUST_PROXY: 'true',
      ACCESS_TOKEN_EXPIRES_IN: '900',
      DATABASE_URL: 'postgres://u@h/db',
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
    })
    expect(config).toMatchObject({ jwtSecrets: [secret, 't'.repeat(40)], trustProxy: true, accessTokenTtlSeconds: 900, databaseUrl: 'postgres://u@h/db' })
  })

  it('reads the retry and circuit settings of the metered relay, and refuses a circuit that never opens', () => {
    expect(loadRelayConfig({ JWT_SECRET: secret })).toMatchObject({
      providerRetryBackoffMs: 250,
      providerRetryDeadlineMs: 30_000,
      providerBreakerFailures: 5,
      providerBreakerWindowMs: 60_000,
      providerBreakerCoolDownMs: 30_000,
    })
    const env = {
      JWT_SECRET: secret,
      PROVIDER_RETRY_BACKOFF_MS: '100',
      PROVIDER_RETRY_DEADLINE_MS: '5000',
      PROVIDER_BREAKER_FAILURES: '3',
      PROVIDER_BREAKER_WINDOW_MS: '10000',
      PROVIDER_BREAKER_COOLDOWN_MS: '120000',
    }
    expect(loadRelayConfig(env)).toMatchObject({
      providerRetryBackoffMs: 100,
      providerRetryDeadlineMs: 5000,
      providerBreakerFailures: 3,
      providerBreakerWindowMs: 10_000,
      providerBreakerCoolDownMs: 120_000,
    })
    expect(() => loadRelayConfig({ ...env, PROVIDER_BREAKER_FAILURES: '0' })).toThrow(/PROVIDER_BREAKER_FAILURES: /)
  })

  it('names every bad variable in one message', () => {
    const load = () =>
      loadRelayConfig({ JWT_SECRET: 'short', LOG_LEVEL: 'loud', SMTP_URL: 'http://x', ACCESS_TOKEN_EXPIRES_IN: 'soon', TRUST_PROXY: 'maybe' })
    let message = ''
    try {
      load()
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    for (const name of ['JWT_SECRET', 'LOG_LEVEL', 'SMTP_URL', 'ACCESS_TOKEN_EXPIRES_IN', 'TRUST_PROXY']) expect(message).toContain(`  ${name}: `)
  })

  it('requires JWT_SECRET in production, and otherwise generates one once with a warning', () => {
    expect(() => loadRelayConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required/)
    const dataDir = mkdtempSync(join(tmpdir(), 'relay-config-'))
    const warnings: string[] = []
    const first = loadRelayConfig({}, { dataDir, warn: (m) => warnings.push(m) })
    const second = loadRelayConfig({}, { dataDir, warn: (m) => warnings.push(m) })
    expect(second.jwtSecrets).toEqual(first.jwtSecrets)
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first.jwtSecrets[0])
    expect(warnings).toHaveLength(1)
  })
})
