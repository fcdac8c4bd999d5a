/**
 * One HTTP request to a provider, with undici (docs/decisions/073-upstream-calls.md): its keep-alive pools cost the
 * relay's hop a third less than node:http's client, and it has what `fetch`
 * does not expose — a connect timeout apart from the wait for the answer and the silences
 * within it, and the answer as a Node stream the relay can pause.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { Agent, errors } from 'undici'

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

/** One pool set per connect timeout: the timeout belongs to the agent, and a deployment has one. */
const agents = new Map<number, Agent>()

function agentFor(connectTimeoutMs: number): Agent {
  let agent = agents.get(connectTimeoutMs)
  if (!agent) {
    agent = new Agent({ connect: { timeout: connectTimeoutMs } })
    agents.set(connectTimeoutMs, agent)
  }
  return agent
}

export async function sendUpstream({ url, headers, body, connectTimeoutMs, idleTimeoutMs, signal }: UpstreamRequest): Promise<UpstreamResponse> {
  if (signal.aborted) throw new UpstreamError('client_gone', 'the client went away')
  try {
    const response = await agentFor(connectTimeoutMs).request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'POST',
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
