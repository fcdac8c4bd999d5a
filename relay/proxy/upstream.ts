/**
 * One HTTP request to a provider, over node:http(s) with keep-alive agents: the relay's own hop
 * must cost well under a millisecond, and these give what `fetch` does not expose — a connect
 * timeout apart from the idle timeout, and the answer as a Node stream the relay can pause.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import https from 'node:https'

export interface UpstreamRequest {
  url: URL
  headers: Record<string, string>
  body: Uint8Array
  connectTimeoutMs: number
  /** Longest silence: waiting for the answer to start, and between its pieces. */
  idleTimeoutMs: number
  /** The client went away: give up. */
  signal: AbortSignal
}

export interface UpstreamResponse {
  status: number
  headers: IncomingHttpHeaders
  body: IncomingMessage
  /** Ends the exchange at once (closes the connection). */
  abort(): void
}

/** Why no answer came: the relay fails over on each of these, unless the client left. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'connect' | 'timeout' | 'network' | 'client_gone',
    message: string,
  ) {
    super(message)
    this.name = 'UpstreamError'
  }
}

// LIFO keeps the warmest connections busy, so idle ones can time out.
const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
}

export async function sendUpstream(request: UpstreamRequest): Promise<UpstreamResponse> {
  try {
    return await attempt(request)
  } catch (error) {
    // A kept-alive connection the provider closed just as it was reused: one fresh try.
    if (error instanceof StaleConnection) return attempt(request)
    throw error
  }
}

class StaleConnection extends Error {}

function attempt({ url, headers, body, connectTimeoutMs, idleTimeoutMs, signal }: UpstreamRequest): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new UpstreamError('client_gone', 'the client went away'))
    const secure = url.protocol === 'https:'
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.byteLength) },
      agent: agents[secure ? 'https:' : 'http:'],
    })
    let settled = false
    const fail = (error: Error) => {
      if (!settled) {
        settled = true
        signal.removeEventListener('abort', onAbort)
        reject(error)
      }
      req.destroy()
    }
    const onAbort = () => fail(new UpstreamError('client_gone', 'the client went away'))
    signal.addEventListener('abort', onAbort, { once: true })

    req.on('socket', (socket) => {
      if (!socket.connecting) return
      const timer = setTimeout(() => fail(new UpstreamError('connect', `no connection within ${connectTimeoutMs} ms`)), connectTimeoutMs)
      socket.once('connect', () => clearTimeout(timer))
      socket.once('close', () => clearTimeout(timer))
    })
    req.setTimeout(idleTimeoutMs, () => {
      const error = new UpstreamError('timeout', `no answer within ${idleTimeoutMs} ms`)
      if (settled) req.destroy(error)
      else fail(error)
    })
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return
      fail(req.reusedSocket && error.code === 'ECONNRESET' ? new StaleConnection() : new UpstreamError('network', error.code ?? error.message))
    })
    req.on('response', (res) => {
      settled = true
      signal.removeEventListener('abort', onAbort)
      resolve({ status: res.statusCode ?? 502, headers: res.headers, body: res, abort: () => req.destroy() })
    })
    req.end(body)
  })
}
