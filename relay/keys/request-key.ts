import type { Context } from 'hono'

/**
 * The API key a client sent: `x-api-key` (Anthropic clients) or `Authorization: Bearer`
 * (OpenAI clients and Claude Code's ANTHROPIC_AUTH_TOKEN).
 */
export function apiKeyOf(c: Context): string | undefined {
  return c.req.header('x-api-key')?.trim() || c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1]
}
