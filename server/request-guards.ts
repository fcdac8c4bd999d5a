/**
 * Requests no browser or client of ours sends, refused before any handler sees them
 * (docs/decisions/012-request-limits.md): HTTP says a request with two Host headers is answered
 * 400, and a path that does not decode to text (a stray `%`, overlong or invalid UTF-8) or that
 * decodes to control characters (CR, LF, NUL) is no address of ours, so it is not shown the Home
 * page that unknown addresses get.
 */
import type { IncomingMessage } from 'node:http'
import type { ServerType } from '@hono/node-server'

export function isMalformed(incoming: IncomingMessage): boolean {
  // The target as it came on the request line (origin or absolute form), before any decoding.
  const target = (incoming.url ?? '').split('?')[0]!
  return hostHeaders(incoming) > 1 || !isTextPath(target)
}

function hostHeaders(incoming: IncomingMessage): number {
  let count = 0
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) if (incoming.rawHeaders[i]!.toLowerCase() === 'host') count += 1
  return count
}

function isTextPath(path: string): boolean {
  try {
    // eslint-disable-next-line no-control-regex
    return !/[\u0000-\u001f\u007f]/.test(decodeURIComponent(path))
  } catch {
    return false
  }
}

/**
 * CONNECT asks the server to be a tunnel. Node hands it to a `'connect'` listener and, with none,
 * drops the connection without a word; it is answered 405 instead, like every other method we do
 * not serve.
 */
export function refuseTunnels(server: ServerType): void {
  server.on('connect', (_request, socket: NodeJS.WritableStream & { destroy(): void }) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
  })
}
