/**
 * The portal's view of the environment. The process entry (server/env.ts) validates the whole
 * environment first and fills in development secrets, so a bad value never gets this far.
 */
import { z } from 'zod'

const portalEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  RELAY_URL: z.url().optional(),
  SESSION_SECRET: z.string().min(32),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  RELAY_PUBLIC_URL: z.url().optional(),
})

export type PortalEnv = z.infer<typeof portalEnvSchema>

let cached: PortalEnv | undefined

export function portalEnv(): PortalEnv {
  cached ??= portalEnvSchema.parse({
    ...process.env,
    RELAY_URL: process.env.RELAY_URL || undefined,
    PUBLIC_URL: process.env.PUBLIC_URL || undefined,
    RELAY_PUBLIC_URL: process.env.RELAY_PUBLIC_URL || undefined,
  })
  return cached
}

export function sessionSecrets(): string[] {
  return portalEnv()
    .SESSION_SECRET.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * Cookies are marked Secure when the portal is served over https (PUBLIC_URL), which is what
 * "Secure in production" means in practice; a local http try-out still gets working cookies.
 */
export function secureCookies(): boolean {
  return (process.env.PUBLIC_URL ?? '').startsWith('https://')
}

/**
 * The address users reach this deployment at: PUBLIC_URL when the operator set it, else the
 * request's own origin (a local try-out on another port). Invite links are built on it.
 */
export function publicUrl(request: Request): string {
  return (process.env.PUBLIC_URL || new URL(request.url).origin).replace(/\/+$/, '')
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
