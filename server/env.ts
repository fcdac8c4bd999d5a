/**
 * The process environment, validated once at start with one clear message per bad value.
 * The portal's part is checked here; the relay's part by the relay's own loader, when the relay
 * is embedded. In development a missing SESSION_SECRET is generated and kept under data/.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

const serverEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1, 'must be 1–65535').max(65535, 'must be 1–65535').default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  RELAY_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL of a relay' }).optional(),
  SESSION_SECRET: z
    .string()
    .refine((v) => v.split(',').every((s) => s.trim().length >= 32), 'each comma-separated secret needs at least 32 characters')
    .optional(),
  // The relay reads it too; the server needs it to resolve the browser's address for the portal.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(['1', 'true', 'yes', '0', 'false', 'no'], { error: 'must be true or false' }))
    .transform((v) => ['1', 'true', 'yes'].includes(v)),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be the http(s):// address users reach the portal at' }).optional(),
})

export type ServerEnv = z.output<typeof serverEnvSchema> & { SESSION_SECRET: string }

function blankToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]))
}

/** Validates the environment, fills in development defaults and writes them back to process.env. */
export function prepareEnv(dataDir = 'data'): ServerEnv {
  const parsed = serverEnvSchema.safeParse(blankToUndefined(process.env))
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const env = parsed.data
  let sessionSecret = env.SESSION_SECRET
  if (!sessionSecret) {
    if (env.NODE_ENV === 'production' && process.env.GENERATE_MISSING_SECRETS !== '1') {
      throw new Error('Invalid environment:\n  SESSION_SECRET: required in production (32+ characters; comma-separated to rotate)')
    }
    const file = join(dataDir, 'session-secret')
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true })
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 })
      console.warn(`SESSION_SECRET is not set: generated one in ${file} (development only).`)
    }
    sessionSecret = readFileSync(file, 'utf8').trim()
  }
  process.env.SESSION_SECRET = sessionSecret
  process.env.NODE_ENV = env.NODE_ENV
  if (env.PUBLIC_URL) process.env.PUBLIC_URL = env.PUBLIC_URL
  return { ...env, SESSION_SECRET: sessionSecret }
}
