/**
 * One HTTP request to a provider, with undici (docs/decisions/073-upstream-calls.md): its keep-alive pools cost the
 * relay's hop a third less than node:http's client, and it has what `fetch`
 * does not expose — a connect timeout apart from the wait for the answer and the silences
 * within it, and the answer as a Node stream the relay can pause.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { Agent, buildConnector, Client, errors, Pool } from 'undici'

export interface UpstreamRequest {
  url: URL
  headers: Record<string, string>
  body: Uint8Array
  connectTimeoutMs: number
  /** Offer HTTP/2 to an `https:` provider (`PROVIDER_HTTP2`); it answers over HTTP/1.1 if it has no HTTP/2. */
  http2: boolean
  /** Longest silence: waiting for the answer to start, and between its pieces. */
  idleTimeoutMs: number
  /** The client went away: give up. */
  signal: AbortSignal
}

export interface UpstreamResponse {
  status: number
  headers: IncomingHttpHeaders
  /** Read it to the end, or `abort()`: a connection returns to its pool only then. */
  body: Readable
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

/** Streams one HTTP/2 connection carries at most before the pool opens another: undici's own default per connection. */
const http2Streams = 100

/** One pool set per connect timeout and protocol choice: both belong to the agent, and a deployment has one of each. */
const agents = new Map<string, Agent>()

function agentFor(connectTimeoutMs: number, http2: boolean): Agent {
  const name = `${connectTimeoutMs}:${http2}`
  let agent = agents.get(name)
  if (!agent) {
    agent = http2 ? http2Agent(connectTimeoutMs) : new Agent({ connect: { timeout: connectTimeoutMs } })
    agents.set(name, agent)
  }
  return agent
}

/**
 * A pool whose connections offer HTTP/2 (docs/decisions/073-upstream-calls.md, "HTTP/2"). Undici
 * runs one request at a time on a connection unless told otherwise, on HTTP/2 too; a connection
 * that turned out to speak HTTP/2 is told to carry `http2Streams` at once, one that speaks
 * HTTP/1.1 keeps one request at a time (never pipelined).
 */
function http2Agent(connectTimeoutMs: number): Agent {
  const connector = buildConnector({ timeout: connectTimeoutMs, allowH2: true })
  return new Agent({
    factory: (origin, options) =>
      new Pool(origin, {
        ...options,
        factory: (clientOrigin, clientOptions) => {
          let http2 = false
          const client = new Client(clientOrigin, {
            ...clientOptions,
            connect: (connectOptions, done) =>
              connector(connectOptions, (...result) => {
                const [, socket] = result
                http2 = socket !== null && 'alpnProtocol' in socket && socket.alpnProtocol === 'h2'
                done(...result)
              }),
          })
          // The protocol is known once the connection is up.
          client.on('connect', () => (client.pipelining = http2 ? http2Streams : 1))
          return client
        },
      }),
  })
}

export async function sendUpstream({ url, headers, body, connectTimeoutMs, http2, idleTimeoutMs, signal }: UpstreamRequest): Promise<UpstreamResponse> {
  if (signal.aborted) throw new UpstreamError('client_gone', 'the client went away')
  try {
    const response = await agentFor(connectTimeoutMs, http2).request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'POST',
      // Undici puts a request not marked idempotent (any POST, by default) only on a connection
      // where nothing else runs, HTTP/2 included; marked, it shares an HTTP/2 connection. Undici
      // retries neither (a failed attempt fails over, failover.ts), and an HTTP/1.1 connection
      // still takes one request at a time (`http2Agent`).
      idempotent: http2,
      headers: { ...headers, 'content-length': String(body.byteLength) },
      body,
      signal,
      headersTimeout: idleTimeoutMs,
      bodyTimeout: idleTimeoutMs,
    })
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      abort: () => response.body.destroy(),
    }
  } catch (error) {
    throw upstreamError(error, connectTimeoutMs, idleTimeoutMs, signal)
  }
}

function upstreamError(error: unknown, connectTimeoutMs: number, idleTimeoutMs: number, signal: AbortSignal): UpstreamError {
  if (signal.aborted) return new UpstreamError('client_gone', 'the client went away')
  if (error instanceof errors.ConnectTimeoutError) return new UpstreamError('connect', `no connection within ${connectTimeoutMs} ms`)
  if (error instanceof errors.HeadersTimeoutError) return new UpstreamError('timeout', `no answer within ${idleTimeoutMs} ms`)
  const code = (error as { code?: unknown } | null)?.code
  return new UpstreamError('network', typeof code === 'string' ? code : String(error))
}
