/**
 * The relay's configuration, from the environment, validated at start with one clear message per
 * bad value. Tests build a config with `relayConfigSchema.parse({...})`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { z } from 'zod'
import { brandName } from './contract/brand.ts'
import { logLevels } from './logger.ts'

const seconds = (min: number, fallback: number) => z.int().min(min).default(fallback)

/** Where the relay's links point while PUBLIC_URL is unset: a local try-out. */
export const defaultPublicUrl = 'http://localhost:3000'

export const relayConfigSchema = z.object({
  /** SQLite file path, `:memory:`, or `postgres://…`. */
  databaseUrl: z.string().min(1).default('data/relay.sqlite'),
  /** PostgreSQL schema to use instead of the connection's default search_path. */
  databaseSchema: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain SQL identifier')
    .optional(),
  /** HS256 keys: access tokens are signed with the first and verified with any (rotation). */
  jwtSecrets: z.array(z.string().min(32, 'each secret needs at least 32 characters')).min(1),
  /** Unset: each mail is written to the log instead (development). */
  smtpUrl: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  // The product's one name (contract/brand.ts), as the mails it sends are signed.
  mailFrom: z.string().min(3).default(`${brandName.en} <no-reply@localhost>`),
  /** Unset: `defaultPublicUrl`, and `publicUrlConfigured` false (docs/decisions/033-cli-tutorial-and-first-start.md). */
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
  logLevel: z.enum(logLevels).default('info'),
  /** One reverse proxy in front: take the client address from the last X-Forwarded-For entry. */
  trustProxy: z.boolean().default(false),
  /** Admins must sign in with a second factor: the console refuses them until they enrol (docs/decisions/071-secrets-sealed-with-jwt-secret.md). */
  requireAdminTwoFactor: z.boolean().default(false),
  /** PostgreSQL: longest wait for a connection or one statement; past it the call gets a retryable 503. */
  databaseTimeoutMs: z.int().min(500).max(600_000).default(10_000),
  /** PostgreSQL: connections per process at most (db/postgres-pool.ts says how to size it). */
  databasePoolSize: z.int().min(1).max(1000).default(10),
  /** PostgreSQL: calls' freezes and settlements commit without waiting for the disk (docs/decisions/108-money-rules-on-postgres.md). */
  databaseAsyncCommit: z.boolean().default(false),
  /** Snowflake worker number; random when unset (see db/ids.ts). */
  workerId: z.int().min(0).max(1023).optional(),
  accessTokenTtlSeconds: seconds(60, 7200),
  refreshTokenTtlSeconds: seconds(300, 30 * 24 * 3600),
  /** How long a rotated refresh token still works, so parallel refreshes both succeed. */
  refreshReuseGraceSeconds: z.int().min(0).max(300).default(30),
  /** The longest a session (or a client's grant) lasts from its sign-in, however often it refreshes. */
  sessionLifetimeDays: z.int().min(1).max(3650).default(90),
  emailCodeTtlSeconds: seconds(60, 600),
  emailCodeMaxAttempts: z.int().min(1).max(20).default(5),
  /** log2 of scrypt's N for new password hashes (15 = OWASP's floor with r 8, p 3). Tests lower it. */
  passwordCost: z.int().min(10).max(20).default(15),
  /** A points reset is approved automatically when the last approved one is at least this old. */
  pointsResetCooldownDays: z.int().min(0).max(365).default(30),
  /** Metered relay: longest wait for a provider's connection before failing over to the next. */
  providerConnectTimeoutMs: z.int().min(100).max(120_000).default(10_000),
  /** Metered relay: longest silence from a provider, before its answer starts and within a stream. */
  providerTimeoutMs: z.int().min(100).max(3_600_000).default(600_000),
  /**
   * Metered relay: after a connection error, 429, 529 or 5xx the next provider is tried after a
   * pause starting near this and doubling (docs/decisions/073-upstream-calls.md)…
   */
  providerRetryBackoffMs: z.int().min(1).max(60_000).default(250),
  /** …and only while the call's first attempt began less than this long ago. */
  providerRetryDeadlineMs: z.int().min(0).max(3_600_000).default(30_000),
  /** Metered relay: a provider failing this many times in a row within the window has its circuit opened (docs/decisions/073-upstream-calls.md)… */
  providerBreakerFailures: z.int().min(1).max(1000).default(5),
  providerBreakerWindowMs: z.int().min(1000).max(3_600_000).default(60_000),
  /** …and is skipped this long, after which one call tries it. */
  providerBreakerCoolDownMs: z.int().min(1000).max(3_600_000).default(30_000),
  /**
   * This relay's name among those on one database, stable across its restarts (from the
   * environment: RELAY_INSTANCE, else host name and PORT). A relay that starts gives back the
   * holds its previous run left open. Built in code without one, a relay gets a name of its own.
   */
  instance: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .default(() => `relay-${randomBytes(6).toString('hex')}`),
  /** Metered relay: a hold still open after this long belongs to a call its relay lost (it died); it is given back. */
  staleHoldMinutes: z.int().min(10).max(7 * 24 * 60).default(120),
  /**
   * Metered relay: the most a variable-cost call may cost beyond what its user's balance holds
   * (docs/decisions/072-how-a-call-is-charged.md). A call whose whole output bound could cost more than balance + this is
   * refused; 0 never lets usage exceed the balance (every call then freezes its worst case).
   */
  callShortfallCeilingPoints: z.int().min(0).max(1_000_000).default(300),
  /** Usage log: calls recorded longer ago than this are removed, a small batch at a time (docs/decisions/111-bounded-history-reads.md). */
  callsRetentionDays: z.int().min(1).max(3650).default(90),
  /**
   * Whether this process runs the periodic sweeps (stale holds, the usage log's retention, the
   * public figures); of a relay's workers only the first does (relay/workers.ts). Whatever this
   * says, a relay gives back at start the holds its instance's previous run left open.
   */
  sweeps: z.boolean().default(true),
  /**
   * On SIGTERM: how long calls in flight may go on while the relay takes no new ones; then the
   * rest are cut, each charged what it delivered (docs/operating.md, "Stopping and restarting").
   * Long enough for a long agent turn by default.
   */
  shutdownGraceMs: z.int().min(0).max(86_400_000).default(600_000),
  /** Mail queue: how often each relay looks for mail due to be sent (docs/decisions/125-mail-and-announcements.md). */
  mailPollMs: z.int().min(50).max(600_000).default(5000),
  /** `GET /metrics` answers only `Authorization: Bearer <this>`; unset: no metrics are kept or served (telemetry/registry.ts). */
  metricsToken: z.string().min(16, 'needs at least 16 characters').optional(),
  /** OpenTelemetry's OTLP/HTTP endpoint: set, a span per relayed call is exported there (telemetry/tracing.ts). */
  otlpEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  /** Tests: check every reply against its declared response schema (a mismatch becomes a 500). */
  checkResponses: z.boolean().default(false),
}).transform(({ publicUrl, ...config }) => ({
  ...config,
  publicUrl: publicUrl ?? defaultPublicUrl,
  /** Whether the operator gave PUBLIC_URL: only then does the relay know its address for certain. */
  publicUrlConfigured: publicUrl !== undefined,
}))

export type RelayConfig = z.output<typeof relayConfigSchema>
export type RelayConfigInput = z.input<typeof relayConfigSchema>

/** Environment variable behind each setting, for error messages. */
const envNames: Record<keyof RelayConfigInput, string> = {
  databaseUrl: 'DATABASE_URL',
  databaseSchema: 'DATABASE_SCHEMA',
  jwtSecrets: 'JWT_SECRET',
  smtpUrl: 'SMTP_URL',
  mailFrom: 'MAIL_FROM',
  publicUrl: 'PUBLIC_URL',
  logLevel: 'LOG_LEVEL',
  trustProxy: 'TRUST_PROXY',
  requireAdminTwoFactor: 'REQUIRE_ADMIN_TWO_FACTOR',
  databaseTimeoutMs: 'DATABASE_TIMEOUT_MS',
  databasePoolSize: 'DATABASE_POOL_SIZE',
  databaseAsyncCommit: 'DATABASE_ASYNC_COMMIT',
  workerId: 'RELAY_WORKER_ID',
  accessTokenTtlSeconds: 'ACCESS_TOKEN_EXPIRES_IN',
  refreshTokenTtlSeconds: 'REFRESH_TOKEN_EXPIRES_IN',
  refreshReuseGraceSeconds: 'REFRESH_REUSE_GRACE',
  sessionLifetimeDays: 'SESSION_LIFETIME_DAYS',
  emailCodeTtlSeconds: 'EMAIL_CODE_TTL',
  emailCodeMaxAttempts: 'EMAIL_CODE_MAX_ATTEMPTS',
  passwordCost: 'PASSWORD_COST',
  pointsResetCooldownDays: 'POINTS_RESET_COOLDOWN_DAYS',
  providerConnectTimeoutMs: 'PROVIDER_CONNECT_TIMEOUT_MS',
  providerTimeoutMs: 'PROVIDER_TIMEOUT_MS',
  providerRetryBackoffMs: 'PROVIDER_RETRY_BACKOFF_MS',
  providerRetryDeadlineMs: 'PROVIDER_RETRY_DEADLINE_MS',
  providerBreakerFailures: 'PROVIDER_BREAKER_FAILURES',
  providerBreakerWindowMs: 'PROVIDER_BREAKER_WINDOW_MS',
  providerBreakerCoolDownMs: 'PROVIDER_BREAKER_COOLDOWN_MS',
  staleHoldMinutes: 'STALE_HOLD_MINUTES',
  instance: 'RELAY_INSTANCE',
  callShortfallCeilingPoints: 'CALL_SHORTFALL_CEILING_POINTS',
  callsRetentionDays: 'CALLS_RETENTION_DAYS',
  mailPollMs: 'MAIL_POLL_MS',
  metricsToken: 'METRICS_TOKEN',
  otlpEndpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  checkResponses: 'RELAY_CHECK_RESPONSES',
  sweeps: 'RELAY_SWEEPS',
  shutdownGraceMs: 'SHUTDOWN_GRACE_MS',
}

/** A bad configuration: one line per bad variable, `NAME: what is wrong`. */
export class ConfigError extends Error {
  override name = 'ConfigError'

  constructor(readonly problems: string[]) {
    super(`Invalid relay configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
  }
}

export interface LoadConfigOptions {
  /** Where a development JWT secret is kept; default `data`. */
  dataDir?: string
  /** Told about the generated development secret. */
  warn?: (message: string) => void
}

export function loadRelayConfig(
  env: Record<string, string | undefined> = process.env,
  { dataDir = 'data', warn = console.warn }: LoadConfigOptions = {},
): RelayConfig {
  const input: Record<string, unknown> = {}
  for (const [field, name] of Object.entries(envNames)) {
    const raw = env[name]?.trim()
    if (raw) input[field] = fromEnv(field as keyof RelayConfigInput, raw)
  }
  if (!input.jwtSecrets) {
    // `npm start` without an operator-set NODE_ENV sets GENERATE_MISSING_SECRETS (scripts/start.ts).
    if (env.NODE_ENV === 'production' && env.GENERATE_MISSING_SECRETS !== '1') {
      throw new ConfigError(['JWT_SECRET: required when NODE_ENV=production'])
    }
    input.jwtSecrets = [developmentSecret(join(dataDir, 'jwt-secret'), warn)]
  }
  // Two relays on one host never share a port, and a restarted container keeps its host name.
  input.instance ??= `${hostname()}:${env.PORT?.trim() || '3000'}`
  const result = relayConfigSchema.safeParse(input)
  if (result.success) return result.data
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const field = issue.path[0] as keyof RelayConfigInput
      return `${envNames[field] ?? String(field)}: ${issue.message}`
    }),
  )
}

function fromEnv(field: keyof RelayConfigInput, raw: string): unknown {
  switch (field) {
    case 'jwtSecrets':
      return raw.split(',').map((s) => s.trim()).filter(Boolean)
    case 'trustProxy':
    case 'requireAdminTwoFactor':
    case 'databaseAsyncCommit':
    case 'checkResponses':
    case 'sweeps':
      return ['1', 'true', 'yes'].includes(raw.toLowerCase()) ? true : ['0', 'false', 'no'].includes(raw.toLowerCase()) ? false : raw
    case 'workerId':
    case 'databaseTimeoutMs':
    case 'databasePoolSize':
    case 'accessTokenTtlSeconds':
    case 'refreshTokenTtlSeconds':
    case 'refreshReuseGraceSeconds':
    case 'sessionLifetimeDays':
    case 'emailCodeTtlSeconds':
    case 'emailCodeMaxAttempts':
    case 'passwordCost':
    case 'pointsResetCooldownDays':
    case 'providerConnectTimeoutMs':
    case 'providerTimeoutMs':
    case 'providerRetryBackoffMs':
    case 'providerRetryDeadlineMs':
    case 'providerBreakerFailures':
    case 'providerBreakerWindowMs':
    case 'providerBreakerCoolDownMs':
    case 'staleHoldMinutes':
    case 'callShortfallCeilingPoints':
    case 'callsRetentionDays':
    case 'mailPollMs':
    case 'shutdownGraceMs':
      // Non-numbers stay strings so zod reports "expected number" against the variable.
      return /^-?\d+$/.test(raw) ? Number(raw) : raw
    default:
      return raw
  }
}

/** Generated once and kept, so development tokens survive restarts. */
function developmentSecret(path: string, warn: (message: string) => void): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim()
  mkdirSync(dirname(path), { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(path, `${secret}\n`, { mode: 0o600 })
  warn(`JWT_SECRET is not set: generated one in ${path}. Set JWT_SECRET in production.`)
  return secret
}
