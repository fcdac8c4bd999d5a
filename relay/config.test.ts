import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, configurationTable, envExample, loadConfig, loadRelayConfig, type LoadConfigOptions } from './config.ts'

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
    for (const name of ['JWT_SECRET', 'LOG_LEVEL', 'SMTP_URL', 'ACCESS_TOKEN_EXPIRES_IN', 'TRUST_PROXY']) expect(message).toContain(`Invalid environment: ${name}: `)
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

const secrets = { SESSION_SECRET: 's'.repeat(40), JWT_SECRET: 'j'.repeat(40) }
const fresh = (options: LoadConfigOptions = {}): LoadConfigOptions => ({ dataDir: mkdtempSync(join(tmpdir(), 'config-test-')), warn: () => {}, ...options })

function problemsOf(env: Record<string, string>, options: LoadConfigOptions = {}): string[] {
  try {
    loadConfig(env, fresh(options))
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).message.split('\n')
  }
  throw new Error('the environment was accepted')
}

describe('the whole configuration', () => {
  it("names every bad value on a line of its own, the portal's and the embedded relay's together", () => {
    const lines = problemsOf({ ...secrets, RELAY_PUBLIC_URL: 'not a url', PORT: 'eighty', JWT_SECRET: 'short', TRUST_PROXY: 'maybe', WORKERS: '0' })
    expect(lines).toHaveLength(5)
    for (const name of ['RELAY_PUBLIC_URL', 'PORT', 'JWT_SECRET', 'TRUST_PROXY', 'WORKERS']) {
      expect(lines.filter((line) => line.startsWith(`Invalid environment: ${name}: `))).toHaveLength(1)
    }
  })

  it('requires the secrets in production and generates them for a try-out, or when told to', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'Invalid environment: SESSION_SECRET: required in production (32+ characters; comma-separated to rotate)',
      'Invalid environment: JWT_SECRET: required when NODE_ENV=production',
    ])
    for (const [env, options] of [[{}, {}], [{ NODE_ENV: 'production' }, { generateMissingSecrets: true }]] as const) {
      const config = loadConfig(env, fresh(options))
      expect(config.portal.sessionSecrets[0]).toHaveLength(64)
      expect(config.relay?.jwtSecrets[0]).toHaveLength(64)
    }
  })

  it('embeds no relay when RELAY_URL names one elsewhere, and then does not ask for its secrets', () => {
    const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secrets.SESSION_SECRET, RELAY_URL: 'https://relay.example.com' }, fresh())
    expect(config.relay).toBeUndefined()
    expect(config.portal.relayUrl).toBe('https://relay.example.com')
  })

  it('reads a variable both sections use once, with the same value in each', () => {
    const config = loadConfig({ ...secrets, TRUST_PROXY: 'yes', PUBLIC_URL: 'https://portal.example.com', WORKERS: '3' }, fresh())
    expect(config.portal).toMatchObject({ trustProxy: true, publicUrl: 'https://portal.example.com', sessionSecrets: [secrets.SESSION_SECRET] })
    expect(config.relay).toMatchObject({ trustProxy: true, publicUrl: 'https://portal.example.com', publicUrlConfigured: true })
    expect(config.process).toMatchObject({ workers: 3, host: '0.0.0.0', buildDir: 'build', nodeEnv: 'development' })
  })

  it('serves the relay alone without a session secret', () => {
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: secrets.JWT_SECRET }, fresh({ relayAlone: true })).relay?.jwtSecrets).toEqual([secrets.JWT_SECRET])
  })

  it('is what docs/configuration.md and .env.example say (regenerate them with `npm run config:docs`)', () => {
    expect(readFileSync('docs/configuration.md', 'utf8')).toContain(configurationTable())
    expect(readFileSync('.env.example', 'utf8')).toBe(envExample())
  })
})
