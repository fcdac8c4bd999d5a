import type { Context } from 'hono'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { authenticateApiKey, type ApiKeyIdentity } from './service.ts'

/**
 * The API key a client sent: `x-api-key` (Anthropic clients) or `Authorization: Bearer`
 * (OpenAI clients and Claude Code's ANTHROPIC_AUTH_TOKEN).
 */
export function apiKeyOf(c: Context): string | undefined {
  return c.req.header('x-api-key')?.trim() || c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1]
}

/** The key's owner, or 401: a missing, malformed, unknown or deleted key all read the same. */
export async function requireApiKey(c: Context, services: RelayServices): Promise<ApiKeyIdentity> {
  const key = apiKeyOf(c)
  const identity = key ? await authenticateApiKey(services.db, key, services.clock) : null
  if (!identity) throw new RelayError('unauthenticated', 'a valid API key is required')
  return identity
}
