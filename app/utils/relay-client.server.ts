/**
 * The one way the portal talks to the relay (docs/architecture.md §2, §7). It speaks the HTTP contract of
 * docs/architecture.md §5.6 either to an embedded relay in the same process (no socket) or to RELAY_URL.
 *
 * - Normalises bodies exactly as docs/product.md say (see `normalise`).
 * - Parses ids losslessly (relay-json.ts).
 * - Every call has a 15 000 ms timeout and follows the caller's abort signal; idempotent reads
 *   are retried up to 3 times on network errors, never on an HTTP answer.
 */
import { data } from 'react-router'
import type { ErrorDetails } from '#relay/contract/index.ts'
import { parseRelayJson } from './relay-json.ts'

export const relayTimeoutMs = 15_000
export const relayReadRetries = 3

export type RelayTransport = (request: Request) => Promise<Response>

/** A call the relay refused (4xx): the request, not the relay, is at fault. */
export class RelayCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | undefined,
    readonly details: Partial<ErrorDetails> | undefined,
  ) {
    super(message)
    this.name = 'RelayCallError'
  }

  get reason(): string | undefined {
    return typeof this.details?.reason === 'string' ? this.details.reason : undefined
  }
}

type Normalised = { success: true; data: unknown; message?: string } | { success: false; message: string; code?: number; details?: Partial<ErrorDetails> }

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

/**
 * docs/architecture.md §5.6 response normalisation and §8 error messages: a body with a `success` flag is used as
 * is; a `code` of 0 is success; any other code is an error with code, message and details. A
 * non-OK status takes its message from msg, message, error.details, error.message, else
 * `HTTP error! status: N`.
 */
export function normalise(status: number, body: unknown): Normalised {
  const b = record(body)
  const errorField = record(b?.error)
  const details = record(errorField?.details) as Partial<ErrorDetails> | undefined
  const code = typeof b?.code === 'number' ? b.code : undefined
  if (status < 200 || status >= 300) {
    const candidates = [b?.msg, b?.message, errorField?.details, errorField?.message]
    const message = candidates.find((c): c is string => typeof c === 'string' && c.length > 0)
    return { success: false, message: message ?? `HTTP error! status: ${status}`, code, details }
  }
  if (b && typeof b.success === 'boolean') {
    return b.success
      ? { success: true, data: b.data, message: typeof b.message === 'string' ? b.message : undefined }
      : { success: false, message: String(b.message ?? b.msg ?? ''), code, details }
  }
  if (code === 0) return { success: true, data: b?.data, message: typeof b?.message === 'string' ? b.message : undefined }
  if (code !== undefined) return { success: false, message: String(b?.message ?? ''), code, details }
  return { success: true, data: body }
}

export interface RelayClientOptions {
  transport: RelayTransport
  /** Base URL the paths are resolved against (the embedded relay ignores the host). */
  baseUrl: string
  accessToken?: () => string | undefined
  signal?: AbortSignal
  /** Headers every call carries (language, client address). */
  headers?: Record<string, string>
  /** Called when an authenticated call is answered 401: the session is over. */
  onUnauthenticated?: () => never
}

type Query = Record<string, string | number | undefined>

export interface WriteOptions {
  /** Sent as `Idempotency-Key`: the relay acts once per key and answers repeats with the first reply. */
  idempotencyKey?: string
}

export interface RelayClient {
  get<T>(path: string, query?: Query): Promise<T>
  post<T>(path: string, body?: unknown, options?: WriteOptions): Promise<T>
  put<T>(path: string, body?: unknown): Promise<T>
  delete<T>(path: string): Promise<T>
  /**
   * A download (a CSV export): the relay's answer as it comes, its body unread, so the caller can
   * stream it on. The timeout covers the wait for the answer to start, not its length.
   */
  download(path: string, query?: Query): Promise<Response>
}

/**
 * A relay that cannot be reached, times out or answers 5xx is thrown as a 503 route error
 * response, not an Error: React Router keeps its status and data in production, so the error
 * page can say the service is down and keep the session (docs/product.md), and actions can still catch it.
 */
function relayUnavailable(status: number, message: string) {
  return data({ relayUnavailable: true as const, status, message }, { status: 503 })
}

export function isRelayUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('data' in error)) return false
  const payload = (error as { data: unknown }).data
  return !!payload && typeof payload === 'object' && (payload as { relayUnavailable?: unknown }).relayUnavailable === true
}

function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')
}

export function createRelayClient(options: RelayClientOptions): RelayClient {
  async function call<T>(method: string, path: string, body?: unknown, query?: Query, writeOptions: WriteOptions = {}, raw = false): Promise<T> {
    const url = new URL(path, options.baseUrl)
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    const token = options.accessToken?.()
    const headers = new Headers(options.headers)
    headers.set('accept', 'application/json')
    if (body !== undefined) headers.set('content-type', 'application/json')
    if (token) headers.set('authorization', `Bearer ${token}`)
    if (writeOptions.idempotencyKey) headers.set('idempotency-key', writeOptions.idempotencyKey)

    const attempts = method === 'GET' ? 1 + relayReadRetries : 1
    let response: Response | undefined
    for (let attempt = 1; ; attempt++) {
      // A download's body may take longer than the timeout: its timer stops once the answer starts.
      const downloadTimer = raw ? new AbortController() : null
      const stop = downloadTimer
        ? setTimeout(() => downloadTimer.abort(new DOMException('The relay did not answer in time', 'TimeoutError')), relayTimeoutMs)
        : undefined
      const timeout = downloadTimer ? downloadTimer.signal : AbortSignal.timeout(relayTimeoutMs)
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
      try {
        response = await options.transport(
          new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal }),
        )
        clearTimeout(stop)
        break
      } catch (error) {
        clearTimeout(stop)
        if (options.signal?.aborted) throw error
        if (!isNetworkError(error) || attempt >= attempts) {
          throw relayUnavailable(0, 'network connection error')
        }
      }
    }

    if (raw && response.ok) return response as T
    const text = await response.text()
    let parsed: unknown = undefined
    if (text) {
      try {
        parsed = parseRelayJson(text)
      } catch {
        parsed = text
      }
    }
    const result = normalise(response.status, parsed)
    if (result.success) return result.data as T
    if (response.status === 401 && token && options.onUnauthenticated) options.onUnauthenticated()
    if (response.status >= 500) throw relayUnavailable(response.status, result.message)
    throw new RelayCallError(result.message, response.status, result.code, result.details)
  }

  // A client lives for one request, in which the layout and the page may both read the same
  // thing (user info): one relay call serves both. Any write forgets what was read before it.
  const reads = new Map<string, Promise<unknown>>()
  function write<T>(method: string, path: string, body?: unknown, options?: WriteOptions): Promise<T> {
    reads.clear()
    return call<T>(method, path, body, undefined, options)
  }

  return {
    get: <T>(path: string, query?: Query) => {
      const key = `${path}?${JSON.stringify(query ?? {})}`
      let read = reads.get(key)
      if (!read) {
        read = call<T>('GET', path, undefined, query)
        reads.set(key, read)
        // A failed read is not kept: a later caller in the request may try again.
        read.catch(() => reads.delete(key))
      }
      return read as Promise<T>
    },
    post: (path, body, options) => write('POST', path, body ?? {}, options),
    put: (path, body) => write('PUT', path, body ?? {}),
    delete: (path) => write('DELETE', path),
    download: (path, query) => call<Response>('GET', path, undefined, query, {}, true),
  }
}
