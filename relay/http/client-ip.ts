import type { Context } from 'hono'
import type { RelayEnv } from './relay-env.ts'

/**
 * The caller's address, the subject of per-IP rate limits and of billing records.
 * The peer is whoever opened the connection: the socket address, or the address the embedding
 * server passed in-process. Only with `trustProxy` (one reverse proxy in front) do we believe
 * `X-Forwarded-For`, and then only its last entry, the one our proxy appended; entries before it
 * come from the client and can be forged.
 */
export function clientIp(c: Context<RelayEnv>, trustProxy: boolean): string {
  const peer = c.env?.clientIp ?? c.env?.incoming?.socket.remoteAddress ?? 'unknown'
  if (!trustProxy) return peer
  const forwarded = c.req.header('x-forwarded-for')
  const last = forwarded?.split(',').at(-1)?.trim()
  return last || peer
}
