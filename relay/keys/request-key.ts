import type { Context } from 'hono'

/**
 * The API key a client sent: `x-api-key` (Anthropic clients), `Authorization: Bearer` (OpenAI
 * clients and Claude Code's ANTHROPIC_AUTH_TOKEN), `x-goog-api-key` (Google's SDKs and Gemini
 * CLI), or, on the Gemini API only, the `key` query parameter Google's REST examples use.
 */
export function apiKeyOf(c: Context): string | undefined {
  return (
    c.req.header('x-api-key')?.trim() ||
    c.req.header('x-goog-api-key')?.trim() ||
    c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1] ||
    (c.req.path.startsWith('/v1beta/') ? c.req.query('key')?.trim() : undefined) ||
    undefined
  )
}
