import type { Context } from 'hono'
import type { RelayEnv } from './relay-env.ts'

/**
 * The one rule for a caller's address, the subject of per-IP rate limits and of billing records.
 * The peer is whoever opened the connection. Only with `trustProxy` (one reverse proxy in front)
 * do we believe `X-Forwarded-For`, and then only its last entry, the one our proxy appended;
 * entries before it come from the client and can be forged.
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | undefined | null, trustProxy: boolean): string {
  const socket = peer || 'unknown'
  if (!trustProxy) return socket
  return forwardedFor?.split(',').at(-1)?.trim() || socket
}

/**
 * The caller's address as the relay sees it. A server that embeds the relay resolves the address
 * itself, with the same rule, and passes it in-process (`clientIp`, see relay/index.ts): it is
 * final, as nothing a remote client sends can set it. Served on its own socket, the relay
 * resolves it here.
 */
export function clientIp(c: Context<RelayEnv>, trustProxy: boolean): string {
  if (c.env?.clientIp) return c.env.clientIp
  return resolveClientAddress(c.env?.incoming?.socket.remoteAddress, c.req.header('x-forwarded-for'), trustProxy)
}
