/**
 * The deployment's configuration, declared once: every environment variable the server, the
 * portal and the relay read, what it means and what values it takes. docs/configuration.md's
 * table and .env.example are generated from these declarations (`npm run config:docs`; a test
 * fails when they drift).
 *
 * `loadConfig(env)` parses them all at start into three sections (the process's, the portal's and
 * the embedded relay's) and names every bad value on a line of its own. The result is passed
 * down, and handed to the portal build with `useConfig`: nothing is written back to process.env
 * but NODE_ENV, which React's builds read for themselves. Tests build a relay section with
 * `relayConfigSchema.parse({...})`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { z } from 'zod'
import { brandName } from './contract/brand.ts'
import { logLevels } from './logger.ts'

type Section = 'process' | 'portal' | 'relay' | 'shared'

interface Variable<S extends z.ZodType = z.ZodType> {
  /** The environment variable. */
  env: string
  /** Whose it is: `shared` ones are read by the portal and the relay alike. */
  section: Section
  schema: S
  /** What it means, for docs/configuration.md and .env.example. */
  about: string
  /** The default as docs show it, where the schema's own is none or computed. */
  shown?: string
  /** .env.example sets it to this value instead of listing it commented out. */
  example?: string
}

const variable = <C extends Section, S extends z.ZodType>(
  env: string,
  section: C,
  schema: S,
  about: string,
  more: Pick<Variable, 'shown' | 'example'> = {},
): Variable<S> & { section: C } => ({
  env,
  section,
  schema,
  about,
  ...more,
})

const httpUrl = (meaning: string) => z.url({ protocol: /^https?$/, error: `must be ${meaning}, an http(s):// URL` })
const secrets = z.array(z.string().min(32, 'each secret needs at least 32 characters')).min(1)
const seconds = (min: number, fallback: number) => z.int().min(min).default(fallback)
const port = z.int('must be a port number').min(1, 'must be 1–65535').max(65535, 'must be 1–65535')

/** Where the relay's links point while PUBLIC_URL is unset: a local try-out. */
export const defaultPublicUrl = 'http://localhost:3000'

export const variables = {
  // The process.
  nodeEnv: variable('NODE_ENV', 'process', z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
    '`production` requires the secrets below; otherwise missing ones are generated under `data/`. `npm start` runs in production mode either way, generating secrets only when you did not set it (the Dockerfile does).'),
  port: variable('PORT', 'process', port.optional(), 'Port of the portal and its embedded relay; of the relay alone under `npm run relay`.', { shown: '`3000`; `3001` for `npm run relay`', example: '3000' }),
  host: variable('HOST', 'process', z.string().min(1).default('0.0.0.0'), 'Address to bind.'),
  workers: variable('WORKERS', 'process', z.int('must be a whole number from 1 to 256').min(1, 'must be a whole number from 1 to 256').max(256, 'must be a whole number from 1 to 256').optional(),
    'Serving processes of `npm start` / `npm run relay`, sharing the port (Node\'s cluster); `1` runs a single process (docs/decisions/076-the-hot-path.md). SIGHUP to the primary restarts them one at a time (docs/operating.md).', { shown: 'CPUs on PostgreSQL, `1` on SQLite' }),
  shutdownGraceMs: variable('SHUTDOWN_GRACE_MS', 'process', z.int().min(0).max(86_400_000).default(600_000),
    'On SIGTERM: how long calls in flight may go on, long streams included, while the process takes no new ones; then those left are cut, each charged what it delivered (docs/operating.md, "Stopping and restarting"). Keep the supervisor\'s stop timeout above it.'),
  buildDir: variable('BUILD_DIR', 'process', z.string().min(1).default('build'), 'Where `npm run build` writes the portal and the compiled server, and where `npm start` reads them.'),

  // The portal.
  relayUrl: variable('RELAY_URL', 'portal', httpUrl('the address of a relay running elsewhere').optional(), 'A relay running elsewhere; when set, no relay is embedded and the portal keeps no database.'),
  relayPublicUrl: variable('RELAY_PUBLIC_URL', 'portal', httpUrl('the address CLI clients are pointed at').optional(),
    'The address CLI clients are pointed at in every setup snippet (Claude Code\'s `ANTHROPIC_BASE_URL`).', { shown: '`RELAY_URL`, else `PUBLIC_URL`' }),
  sessionSecrets: variable('SESSION_SECRET', 'portal', secrets.optional(),
    'Keys that encrypt the session cookie, comma-separated: the first encrypts, all decrypt (rotate by prepending). 32+ characters each. Required with `NODE_ENV=production`.', { shown: 'generated in `data/`' }),

  // Both.
  publicUrl: variable('PUBLIC_URL', 'shared', httpUrl('the address users reach the portal at').optional(),
    'Address users reach the portal at; used in mails, invite links and client setup snippets. `https://` makes every cookie Secure. Recorded in the database at start, for the operator CLI\'s links.', { shown: `\`${defaultPublicUrl}\``, example: defaultPublicUrl }),
  trustProxy: variable('TRUST_PROXY', 'shared', z.boolean().default(false),
    'Behind one reverse proxy: take each browser\'s address (sign-in and code limits, call records) from the last `X-Forwarded-For` entry. Set it on a relay run elsewhere too: the portal is then its proxy.'),
  metricsToken: variable('METRICS_TOKEN', 'shared', z.string().min(16, 'needs at least 16 characters').optional(),
    'Serve `GET /metrics` (Prometheus) to `Authorization: Bearer <this>`, 16+ characters; unset: 404, nothing counted (docs/observability.md).'),
  otlpEndpoint: variable('OTEL_EXPORTER_OTLP_ENDPOINT', 'shared', httpUrl("an OpenTelemetry collector's OTLP/HTTP address").optional(),
    'Export a span per relayed call and per portal request over OTLP/HTTP (docs/observability.md).'),
  otelServiceName: variable('OTEL_SERVICE_NAME', 'shared', z.string().min(1).default('relay-portal'), 'The `service.name` of exported spans.'),

  // The relay.
  databaseUrl: variable('DATABASE_URL', 'relay', z.string().min(1).default('data/relay.sqlite'), 'SQLite file path, or `postgres://user:pass@host:5432/db`.', { example: 'data/relay.sqlite' }),
  databaseSchema: variable('DATABASE_SCHEMA', 'relay', z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain SQL identifier').optional(),
    'PostgreSQL schema to use instead of the connection\'s default search path.'),
  jwtSecrets: variable('JWT_SECRET', 'relay', secrets, 'Keys that sign the relay\'s access tokens; same rotation rule and requirement as `SESSION_SECRET`.', { shown: 'generated in `data/`' }),
  smtpUrl: variable('SMTP_URL', 'relay', z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    '`smtp://user:pass@host:587` (or `smtps://`). Unset: each mail is written to the log as one line with the recipient and the code.'),
  mailFrom: variable('MAIL_FROM', 'relay', z.string().min(3).default(`${brandName.en} <no-reply@localhost>`), 'Sender of verification and notification mails.'),
  mailPollMs: variable('MAIL_POLL_MS', 'relay', z.int().min(50).max(600_000).default(5000),
    'How often each relay sends the mails and alert messages that are due (docs/decisions/125-mail-and-announcements.md).'),
  alertCheckMs: variable('ALERT_CHECK_MS', 'relay', z.int().min(50).max(600_000).default(15_000),
    'How often each relay looks for alert incidents to open or resolve (docs/observability.md, "Webhook alerts").'),
  alertErrorRatePercent: variable('ALERT_ERROR_RATE_PERCENT', 'relay', z.int().min(1).max(100).default(25),
    'A provider whose recorded calls failed at least this share (percent) over `ALERT_ERROR_WINDOW_MINUTES`, of at least `ALERT_ERROR_MIN_CALLS`, is alerted on.'),
  alertErrorWindowMinutes: variable('ALERT_ERROR_WINDOW_MINUTES', 'relay', z.int().min(1).max(1440).default(5), "The window of a provider's error rate, in minutes."),
  alertErrorMinCalls: variable('ALERT_ERROR_MIN_CALLS', 'relay', z.int().min(1).max(1_000_000).default(20), "The fewest calls in the window for a provider's error rate to count."),
  alertSettlementBacklog: variable('ALERT_SETTLEMENT_BACKLOG', 'relay', z.int().min(1).max(10_000_000).default(500),
    'Calls waiting for their settlement in one relay process from which an alert says settlements are lagging.'),
  alertPointsLiability: variable('ALERT_POINTS_LIABILITY', 'relay', z.int().min(1).optional(), 'Unused points held by all accounts above which an alert is sent; unset: never.'),
  logLevel: variable('LOG_LEVEL', 'relay', z.enum(logLevels).default('info'), '`debug`, `info`, `warn` or `error`. Lines go to stdout, stray errors to stderr; a process whose output loses its reader keeps serving, its log lost.', { example: 'info' }),
  requireAdminTwoFactor: variable('REQUIRE_ADMIN_TWO_FACTOR', 'relay', z.boolean().default(false),
    '`true`: admins must sign in with a second factor; one without is sent to enrol, and the relay refuses them the operator console until they have (docs/decisions/071-secrets-sealed-with-jwt-secret.md).'),
  databaseTimeoutMs: variable('DATABASE_TIMEOUT_MS', 'relay', z.int().min(500).max(600_000).default(10_000),
    'PostgreSQL: longest wait for a connection or one statement. Past it (a database down, a network cut) calls get a retryable 503 with `Retry-After`, and the pool reconnects once the database is back.'),
  databasePoolSize: variable('DATABASE_POOL_SIZE', 'relay', z.int().min(1).max(1000).default(10),
    'PostgreSQL: connections per process at most. A relayed call holds one for a single statement, so a few serve many calls; keep processes (`WORKERS` × relays) × this under the server\'s `max_connections` (relay/db/postgres-pool.ts).'),
  databaseAsyncCommit: variable('DATABASE_ASYNC_COMMIT', 'relay', z.boolean().default(false),
    'PostgreSQL: `true` lets the relay count a group of calls\' settlements as written without waiting for the disk: less load on the database, but a database *server* crash can lose the last fraction of a second of charges, never overcharging anyone (docs/decisions/108-money-rules-on-postgres.md).'),
  instance: variable('RELAY_INSTANCE', 'relay', z.string().trim().min(1).max(255).default(() => `relay-${randomBytes(6).toString('hex')}`),
    'This relay\'s name among those on one database; when it starts it gives back the points its previous run held for calls that died with it. Never give two running relays the same name.', { shown: 'host name and `PORT`' }),
  workerId: variable('RELAY_WORKER_ID', 'relay', z.int().min(0).max(1023).optional(),
    'Snowflake worker number (0–1023); set a distinct one per relay instance sharing a database (relay/db/ids.ts).', { shown: 'random' }),
  sweeps: variable('RELAY_SWEEPS', 'relay', z.boolean().default(true),
    'Whether this process runs the periodic sweeps (stale holds, the usage log\'s retention, the public figures); of a relay\'s workers only the first does. Whatever this says, a relay gives back at start the holds its instance\'s previous run left open.'),
  checkResponses: variable('RELAY_CHECK_RESPONSES', 'relay', z.boolean().default(false), 'Tests: check every reply against its declared response schema (a mismatch becomes a 500).'),
  accessTokenTtlSeconds: variable('ACCESS_TOKEN_EXPIRES_IN', 'relay', seconds(60, 7200), 'Access-token lifetime in seconds.'),
  refreshTokenTtlSeconds: variable('REFRESH_TOKEN_EXPIRES_IN', 'relay', seconds(300, 30 * 24 * 3600), 'Refresh-token lifetime in seconds (30 days).'),
  refreshReuseGraceSeconds: variable('REFRESH_REUSE_GRACE', 'relay', z.int().min(0).max(300).default(30),
    'Seconds a rotated refresh token still works, so parallel refreshes both succeed (for its immediate successor only).'),
  sessionLifetimeDays: variable('SESSION_LIFETIME_DAYS', 'relay', z.int().min(1).max(3650).default(90),
    'The longest a sign-in (or a client\'s grant) lasts, however often it refreshes; then the user signs in again.'),
  emailCodeTtlSeconds: variable('EMAIL_CODE_TTL', 'relay', seconds(60, 600), 'Lifetime of e-mailed codes in seconds.'),
  emailCodeMaxAttempts: variable('EMAIL_CODE_MAX_ATTEMPTS', 'relay', z.int().min(1).max(20).default(5), 'Wrong tries before a code dies.'),
  passwordCost: variable('PASSWORD_COST', 'relay', z.int().min(10).max(20).default(15),
    'log2 of scrypt\'s N for new password hashes (r 8, p 3; 15 is OWASP\'s floor); existing hashes keep their own cost. Tests lower it.'),
  pointsResetCooldownDays: variable('POINTS_RESET_COOLDOWN_DAYS', 'relay', z.int().min(0).max(365).default(30),
    'A points-reset request is approved automatically when the last approved one is at least this old.'),
  providerConnectTimeoutMs: variable('PROVIDER_CONNECT_TIMEOUT_MS', 'relay', z.int().min(100).max(120_000).default(10_000),
    'Metered relay: longest wait for a provider\'s connection before trying the next provider.'),
  providerHttp2: variable('PROVIDER_HTTP2', 'relay', z.boolean().default(false),
    'Metered relay: `true` offers HTTP/2 to `https:` providers, so one connection carries up to 100 calls instead of one: a process holding thousands of streams then needs a socket per call on its client side only (docs/decisions/073-upstream-calls.md, "HTTP/2"). A provider without HTTP/2 is spoken to over HTTP/1.1 as before.'),
  providerTimeoutMs: variable('PROVIDER_TIMEOUT_MS', 'relay', z.int().min(100).max(3_600_000).default(600_000),
    'Metered relay: longest wait for an answer to start, and longest silence within a stream.'),
  maxStreamsPerProcess: variable('MAX_STREAMS_PER_PROCESS', 'relay', z.int().min(1).max(1_000_000).default(10_000),
    'Metered relay: calls one process answers at once (relay/proxy/call-slots.ts); past it a call gets a 503 with `Retry-After` in its client\'s format, counted as `relay_refusals_total{reason="relay_busy"}`. Each call holds two sockets, so keep it under half the process\'s open-file limit (`ulimit -Hn`; Node raises its soft limit to that).'),
  maxStreamsPerUser: variable('MAX_STREAMS_PER_USER', 'relay', z.int().min(1).max(1_000_000).default(1000),
    'Metered relay: of those, calls one user\'s keys and tokens may have in flight in one process; past it a 429 with `Retry-After` (`relay_refusals_total{reason="user_streams_limited"}`). A key\'s own concurrency limit holds across processes (docs/decisions/050-api-keys-and-their-limits.md).'),
  providerRetryBackoffMs: variable('PROVIDER_RETRY_BACKOFF_MS', 'relay', z.int().min(1).max(60_000).default(250),
    'Metered relay: after a connection error, 429, 529 or 5xx the next provider is tried after a pause of about this, doubling per retry, jittered (docs/decisions/073-upstream-calls.md).'),
  providerRetryDeadlineMs: variable('PROVIDER_RETRY_DEADLINE_MS', 'relay', z.int().min(0).max(3_600_000).default(30_000),
    'Metered relay: no such retry starts later than this after the call\'s first attempt.'),
  providerBreakerFailures: variable('PROVIDER_BREAKER_FAILURES', 'relay', z.int().min(1).max(1000).default(5),
    'Metered relay: failures in a row that open a provider\'s circuit (docs/decisions/073-upstream-calls.md)…'),
  providerBreakerWindowMs: variable('PROVIDER_BREAKER_WINDOW_MS', 'relay', z.int().min(1000).max(3_600_000).default(60_000), '…counted within this window.'),
  providerBreakerCoolDownMs: variable('PROVIDER_BREAKER_COOLDOWN_MS', 'relay', z.int().min(1000).max(3_600_000).default(30_000),
    'How long calls skip a provider whose circuit opened; then one call tries it.'),
  staleHoldMinutes: variable('STALE_HOLD_MINUTES', 'relay', z.int().min(10).max(7 * 24 * 60).default(120),
    'Metered relay: points still frozen this long after a call began belong to a relay that died mid-call, and are given back (docs/decisions/074-settlements-and-holds.md).'),
  callShortfallCeilingPoints: variable('CALL_SHORTFALL_CEILING_POINTS', 'relay', z.int().min(0).max(1_000_000).default(300),
    'Metered relay: the most one call may cost beyond the user\'s balance; a call whose whole `max_tokens` could cost more than balance + this needs the difference to start. 0: every call reserves its whole `max_tokens` (docs/decisions/072-how-a-call-is-charged.md).'),
  callsRetentionDays: variable('CALLS_RETENTION_DAYS', 'relay', z.int().min(1).max(3650).default(90),
    'Usage log: calls recorded longer ago are removed, a small batch at a time, so the sweep never holds up calls (docs/decisions/111-bounded-history-reads.md).'),
} satisfies Record<string, Variable>

type Variables = typeof variables
type KeysOf<S extends Section> = { [K in keyof Variables]: Variables[K]['section'] extends S ? K : never }[keyof Variables]
type ShapeOf<S extends Section> = { [K in KeysOf<S>]: Variables[K]['schema'] }

function shapeOf<S extends Section>(...sections: S[]): ShapeOf<S> {
  return Object.fromEntries(
    Object.entries(variables)
      .filter(([, v]) => (sections as Section[]).includes(v.section))
      .map(([key, v]) => [key, v.schema]),
  ) as ShapeOf<S>
}

export const relayConfigSchema = z.object(shapeOf('relay', 'shared')).transform(({ publicUrl, ...config }) => ({
  ...config,
  publicUrl: publicUrl ?? defaultPublicUrl,
  /** Whether the operator gave PUBLIC_URL: only then does the relay know its address for certain (docs/decisions/033-cli-tutorial-and-first-start.md). */
  publicUrlConfigured: publicUrl !== undefined,
}))
const portalConfigSchema = z.object(shapeOf('portal', 'shared'))
const processConfigSchema = z.object(shapeOf('process'))

export type RelayConfig = z.output<typeof relayConfigSchema>
export type RelayConfigInput = z.input<typeof relayConfigSchema>
export type PortalConfig = Omit<z.output<typeof portalConfigSchema>, 'sessionSecrets'> & { sessionSecrets: string[] }
export type ProcessConfig = z.output<typeof processConfigSchema>

export interface Config {
  process: ProcessConfig
  portal: PortalConfig
  /** The embedded relay's; undefined with RELAY_URL (the relay runs elsewhere). */
  relay: RelayConfig | undefined
}

/** A bad configuration: one line per bad variable, `NAME: what is wrong`. */
export class ConfigError extends Error {
  override name = 'ConfigError'

  constructor(readonly problems: string[]) {
    super(problems.map((problem) => `Invalid environment: ${problem}`).join('\n'))
  }
}

export interface LoadConfigOptions {
  /** Where development secrets are kept; default `data`. */
  dataDir?: string
  /** Generate missing secrets under `dataDir` even in production (`npm start` run without NODE_ENV). */
  generateMissingSecrets?: boolean
  /** Told about a generated development secret. */
  warn?: (message: string) => void
  /** The relay alone (`npm run relay`): no portal is served, so no session secret is needed. */
  relayAlone?: boolean
}

type Env = Record<string, string | undefined>

/** Every section, parsed once at start. Throws one ConfigError naming every bad value. */
export function loadConfig(env: Env = process.env, options: LoadConfigOptions = {}): Config {
  const problems: string[] = []
  const processSection = parseSection(processConfigSchema, env, problems)
  const portal = parseSection(portalConfigSchema, env, problems)
  const generate = mayGenerateSecrets(env, options)
  if (portal && !portal.sessionSecrets && !generate && !options.relayAlone) problems.push('SESSION_SECRET: required in production (32+ characters; comma-separated to rotate)')
  let relay: RelayConfig | undefined
  if (!portal?.relayUrl) {
    try {
      relay = loadRelayConfig(env, options)
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      problems.push(...error.problems)
    }
  }
  // A variable both sections read (TRUST_PROXY) is named once.
  const named = new Map(problems.map((problem) => [problem.slice(0, problem.indexOf(':')), problem]))
  if (!processSection || !portal || problems.length > 0) throw new ConfigError([...named.values()])
  const dataDir = options.dataDir ?? 'data'
  const sessionSecrets = portal.sessionSecrets ?? (options.relayAlone ? [] : [developmentSecret(join(dataDir, 'session-secret'), 'SESSION_SECRET', options.warn)])
  return { process: processSection, portal: { ...portal, sessionSecrets }, relay }
}

/** The relay's section alone (`npm run relay`, the operator CLI). */
export function loadRelayConfig(env: Env = process.env, options: LoadConfigOptions = {}): RelayConfig {
  const problems: string[] = []
  const input = rawSection(relayConfigSchema.in.shape, env)
  if (!input.jwtSecrets) {
    if (!mayGenerateSecrets(env, options)) throw new ConfigError(['JWT_SECRET: required when NODE_ENV=production'])
    input.jwtSecrets = [developmentSecret(join(options.dataDir ?? 'data', 'jwt-secret'), 'JWT_SECRET', options.warn)]
  }
  // Two relays on one host never share a port, and a restarted container keeps its host name.
  input.instance ??= `${hostname()}:${env.PORT?.trim() || '3000'}`
  const result = relayConfigSchema.safeParse(input)
  if (result.success) return result.data
  problems.push(...result.error.issues.map((issue) => `${envName(issue.path[0])}: ${issue.message}`))
  throw new ConfigError(problems)
}

function mayGenerateSecrets(env: Env, options: LoadConfigOptions): boolean {
  return options.generateMissingSecrets ?? env.NODE_ENV?.trim() !== 'production'
}

function parseSection<T>(schema: z.ZodType<T> & { shape: z.ZodRawShape }, env: Env, problems: string[]): T | undefined {
  const result = schema.safeParse(rawSection(schema.shape, env))
  if (result.success) return result.data
  problems.push(...result.error.issues.map((issue) => `${envName(issue.path[0])}: ${issue.message}`))
  return undefined
}

/** The section's variables as its schema takes them: numbers, booleans and lists from their text. */
function rawSection(shape: z.ZodRawShape, env: Env): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  for (const key of Object.keys(shape)) {
    const declared = variables[key as keyof Variables]
    const raw = env[declared.env]?.trim()
    if (raw) input[key] = fromText(baseType(declared.schema), raw)
  }
  return input
}

function envName(key: PropertyKey | undefined): string {
  return variables[key as keyof Variables]?.env ?? String(key)
}

/** The schema's own type under `.optional()` and `.default()`. */
function baseType(schema: z.ZodType): string {
  const def = schema.def as { type: string; innerType?: z.ZodType }
  return def.innerType ? baseType(def.innerType) : def.type
}

function fromText(type: string, raw: string): unknown {
  switch (type) {
    case 'array':
      return raw.split(',').map((s) => s.trim()).filter(Boolean)
    case 'boolean': {
      const lower = raw.toLowerCase()
      // Anything else stays text, so zod reports "expected boolean" against the variable.
      return ['1', 'true', 'yes'].includes(lower) ? true : ['0', 'false', 'no'].includes(lower) ? false : raw
    }
    case 'number':
      return /^-?\d+$/.test(raw) ? Number(raw) : raw
    default:
      return raw
  }
}

/** Generated once and kept, so development sessions and tokens survive restarts. */
function developmentSecret(path: string, name: string, warn: (message: string) => void = console.warn): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim()
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 })
  warn(`${name} is not set: generated one in ${path}. Set ${name} in production.`)
  return readFileSync(path, 'utf8').trim()
}

// The portal build bundles its own copy of this module, so the server hands the parsed
// configuration over through one process-wide slot rather than through process.env.
const slot = Symbol.for('relay-portal.config')
type Slot = { [slot]?: Config }

/** Makes `config` this process's: the portal build and every module after read it. */
export function useConfig(config: Config): Config {
  ;(globalThis as Slot)[slot] = config
  // React and React Router pick their production builds from NODE_ENV when first loaded.
  process.env.NODE_ENV = config.process.nodeEnv
  return config
}

/** This process's configuration: the one handed over at start, else parsed now (the development server, tests). */
export function currentConfig(): Config {
  return (globalThis as Slot)[slot] ?? useConfig(loadConfig())
}

/** The start of every entry point: the configuration, or its problems printed and exit 1. */
export function configOrExit(load: () => Config = currentConfig): Config {
  try {
    return load()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

/** BUILD_DIR, for the build's own scripts, which need no other setting. */
export function buildDirectory(env: Env = process.env): string {
  return variables.buildDir.schema.parse(env.BUILD_DIR?.trim() || undefined)
}

/** docs/configuration.md's table, generated from the declarations above. */
export function configurationTable(): string {
  const rows = Object.values(variables as Record<string, Variable>).map((v) => `| \`${v.env}\` | ${shownDefault(v)} | ${v.about} |`)
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n')
}

/** .env.example, generated from the declarations above. */
export function envExample(): string {
  const lines = ['# Copy to .env (or set in your environment). Every variable is optional for a local try-out;', '# docs/configuration.md says what each one means.', '']
  for (const v of Object.values(variables as Record<string, Variable>)) {
    lines.push(...wrapped(v.about.replaceAll('`', ''), 98).map((line) => `# ${line}`), v.example ? `${v.env}=${v.example}` : `# ${v.env}=`, '')
  }
  return lines.join('\n')
}

function wrapped(text: string, width: number): string[] {
  const lines: string[] = []
  for (const word of text.split(' ')) {
    const last = lines.at(-1)
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines
}

function shownDefault(v: Variable): string {
  if (v.shown) return v.shown
  const def = v.schema.def as { type: string; defaultValue?: unknown }
  return def.type === 'default' ? `\`${String(def.defaultValue)}\`` : 'unset'
}
