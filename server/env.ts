/**
 * The environment, in one module: what every variable means and what values it takes, for the
 * production server, the development server and the portal alike.
 *
 * - `prepareEnvironment()` runs before the server listens: it checks the portal's variables and,
 *   when the relay is embedded, the relay's (relay/config.ts), and throws one EnvironmentError
 *   naming every bad value, one line each. In development it generates missing secrets under
 *   data/ and writes them back to process.env.
 * - `portalEnv()` is the portal's view at run time: the same schema over the same process.env,
 *   read once. The helpers below it are what the portal asks of it.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { ConfigError, loadRelayConfig, type RelayConfig } from '#relay/config.ts'

const httpUrl = (meaning: string) => z.url({ protocol: /^https?$/, error: `must be ${meaning}, an http(s):// URL` })

const portalEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1, 'must be 1–65535').max(65535, 'must be 1–65535').default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: httpUrl('the address users reach the portal at').optional(),
  RELAY_URL: httpUrl('the address of a relay running elsewhere').optional(),
  RELAY_PUBLIC_URL: httpUrl('the address CLI clients are pointed at').optional(),
  SESSION_SECRET: z
    .string()
    .refine((v) => v.split(',').every((s) => s.trim().length >= 32), 'each comma-separated secret needs at least 32 characters')
    .optional(),
  // The relay reads it too: this process's /metrics covers the portal, and the relay when embedded.
  METRICS_TOKEN: z.string().min(16, 'needs at least 16 characters').optional(),
  // Set: a span per portal request (and per relayed call when embedded), over OTLP/HTTP.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl("an OpenTelemetry collector's OTLP/HTTP address").optional(),
  // The relay reads it too; the server needs it to resolve the browser's address for the portal.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(['1', 'true', 'yes', '0', 'false', 'no'], { error: 'must be true or false' }))
    .transform((v) => ['1', 'true', 'yes'].includes(v)),
})

export type PortalEnv = z.output<typeof portalEnvSchema> & { SESSION_SECRET: string }

/** What is wrong with the environment: one line per bad variable, `NAME: what is wrong`. */
export class EnvironmentError extends Error {
  override name = 'EnvironmentError'

  constructor(readonly problems: string[]) {
    super(problems.map((problem) => `Invalid environment: ${problem}`).join('\n'))
  }
}

export interface Environment {
  portal: PortalEnv
  /** The embedded relay's configuration; undefined with RELAY_URL (the relay runs elsewhere). */
  relay: RelayConfig | undefined
}

function blankToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v?.trim() === '' ? undefined : v]))
}

/** Validates everything the server will read, generates development secrets, writes them back to process.env. */
export function prepareEnvironment(dataDir = 'data'): Environment {
  const problems: string[] = []
  const parsed = portalEnvSchema.safeParse(blankToUndefined(process.env))
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`))
  const production = process.env.NODE_ENV === 'production' && process.env.GENERATE_MISSING_SECRETS !== '1'
  if (parsed.success && !parsed.data.SESSION_SECRET && production) {
    problems.push('SESSION_SECRET: required in production (32+ characters; comma-separated to rotate)')
  }
  let relay: RelayConfig | undefined
  if (!(parsed.success && parsed.data.RELAY_URL)) {
    try {
      relay = loadRelayConfig(process.env, { dataDir })
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      problems.push(...error.problems)
    }
  }
  // A variable both read (TRUST_PROXY) is named once.
  const named = new Map(problems.map((problem) => [problem.slice(0, problem.indexOf(':')), problem]))
  if (!parsed.success || problems.length > 0) throw new EnvironmentError([...named.values()])

  const env = parsed.data
  const sessionSecret = env.SESSION_SECRET ?? developmentSecret(join(dataDir, 'session-secret'))
  process.env.SESSION_SECRET = sessionSecret
  process.env.NODE_ENV = env.NODE_ENV
  return { portal: { ...env, SESSION_SECRET: sessionSecret }, relay }
}

/** Generated once and kept, so development sessions survive restarts. */
function developmentSecret(file: string): string {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 })
    console.warn(`SESSION_SECRET is not set: generated one in ${file} (development only).`)
  }
  return readFileSync(file, 'utf8').trim()
}

let cached: PortalEnv | undefined

/** The portal's view of the environment, checked by `prepareEnvironment` before anything runs. */
export function portalEnv(): PortalEnv {
  cached ??= portalEnvSchema.extend({ SESSION_SECRET: z.string().min(32) }).parse(blankToUndefined(process.env))
  return cached
}

export function sessionSecrets(): string[] {
  return portalEnv()
    .SESSION_SECRET.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * Cookies are marked Secure (and HSTS sent) when the portal is served over https (PUBLIC_URL),
 * which is what "Secure in production" means in practice; a local http try-out still gets
 * working cookies.
 */
export function servedOverHttps(): boolean {
  return portalEnv().PUBLIC_URL?.startsWith('https://') ?? false
}

/**
 * The address users reach this deployment at: PUBLIC_URL when the operator set it, else the
 * request's own origin (a local try-out on another port). Invite links are built on it.
 */
export function publicUrl(request: Request): string {
  return (portalEnv().PUBLIC_URL ?? new URL(request.url).origin).replace(/\/+$/, '')
}

/**
 * The address CLI clients (Claude Code, SDKs) are pointed at, shown in every setup snippet:
 * RELAY_PUBLIC_URL when the operator sets it; else the relay's own URL when it runs elsewhere;
 * else this portal's address, where the embedded relay is mounted.
 */
export function apiBaseUrl(request: Request): string {
  const env = portalEnv()
  return (env.RELAY_PUBLIC_URL ?? env.RELAY_URL ?? publicUrl(request)).replace(/\/+$/, '')
}
