/**
 * The one way the portal talks to the relay (docs/architecture.md §2, §7). It speaks the HTTP contract of
 * relay/contract/ either to an embedded relay in the same process (no socket) or to RELAY_URL.
 *
 * - `relay.call(endpoints.teams.join, { body })`: the declaration in relay/contract types the
 *   params, query and body, and its response schema parses the reply, so what a loader gets is
 *   what the contract says or an error (docs/decisions/100-one-declaration-per-call.md).
 * - Reads every reply by the contract's envelope schemas (see `readEnvelope`).
 * - Reads and writes ids losslessly (relay/contract/json.ts, the relay's own rule).
 * - Every call has a 15 000 ms timeout and follows the caller's abort signal; idempotent reads
 *   are retried up to 3 times on network errors, never on an HTTP answer.
 * - `relay.download(endpoints.usage.export, { query })`: a declared download answered as it
 *   comes, its body streamed on unread; the timeout and the budget cover only its start.
 * - A page has a budget for all its relay calls (`pageBudgetMs`): past it, however far its calls
 *   got and whether or not the transport stops at an abort, the page is the branded "service slow" error (504) and the session is kept
 *   (docs/decisions/004-slow-or-absent-relay.md). A reply cut off or trickling in is the same kind of failure.
 */
import { data } from 'react-router'
import { z } from 'zod'
import {
  fillPath,
  parseRelayJson,
  stringifyRelayJson,
  errorEnvelopeSchema,
  successEnvelopeSchema,
  type Endpoint,
  type ErrorDetails,
  type PartInput,
  type Reply,
} from '#relay/contract/index.ts'

export const relayTimeoutMs = 15_000
export const relayReadRetries = 3
/** What one page may spend waiting for the relay, all its calls together. */
export const pageBudgetMs = 10_000

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

/** Any success envelope: `call` parses its `data` with the endpoint's own response schema. */
const anySuccessEnvelope = successEnvelopeSchema(z.unknown())

type Answer = { success: true; data: unknown } | { success: false; message: string; code?: number; details?: Partial<ErrorDetails> }

/**
 * Reads a reply by the contract's envelope (relay/contract/envelope.ts): a 2xx answer is the
 * success envelope, any other the error envelope. A non-2xx body that is not the relay's (a proxy's
 * 502 page) is `HTTP error! status: N`; a 2xx body that is not the envelope is a contract mismatch.
 */
function readEnvelope(call: string, status: number, body: unknown): Answer {
  if (status >= 200 && status < 300) {
    const reply = anySuccessEnvelope.safeParse(body)
    if (!reply.success) throw new RelayReplyMismatch(call, reply.error.message)
    return { success: true, data: reply.data.data }
  }
  const refusal = errorEnvelopeSchema.safeParse(body)
  if (!refusal.success) return { success: false, message: `HTTP error! status: ${status}` }
  return { success: false, message: refusal.data.message, code: refusal.data.code, details: refusal.data.error.details }
}

export interface RelayClientOptions {
  transport: RelayTransport
  /** Base URL the paths are resolved against (the embedded relay ignores the host). */
  baseUrl: string
  accessToken?: () => string | undefined
  signal?: AbortSignal
  /** Epoch ms by which every call of the page must be answered (`pageBudgetMs` from its start). */
  deadline?: number
  /** Headers every call carries (language, client address). */
  headers?: Record<string, string>
  /** Called when an authenticated call is answered 401: the session is over. */
  onUnauthenticated?: () => never
}

export interface WriteOptions {
  /** Sent as `Idempotency-Key`: the relay acts once per key and answers repeats with the first reply. */
  idempotencyKey?: string
}

/** A part the call declares is required unless every field of it is optional; one it does not declare cannot be sent. */
type Part<E extends Endpoint, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: unknown }
  ? object extends PartInput<E, K>
    ? { [P in K]?: PartInput<E, K> }
    : { [P in K]: PartInput<E, K> }
  : { [P in K]?: never }

/** What a call sends: its declared parts, and an idempotency key only where the relay honours one. */
export type CallInput<E extends Endpoint> = Part<E, 'params'> &
  Part<E, 'query'> &
  Part<E, 'body'> &
  (E extends { idempotent: true } ? WriteOptions : { idempotencyKey?: never })

type CallArgs<E extends Endpoint> = object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]

export interface RelayClient {
  /** Calls a declared endpoint; resolves with its reply parsed by the declared response schema. */
  call<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<Reply<E>>
  /**
   * Calls a declared download (`download` on its endpoint: the usage log's CSV) and resolves with
   * the relay's answer as it comes, its body unread, so the caller can stream it on. The timeout
   * and the page budget cover the wait for the answer to start, not its length.
   */
  download<E extends Endpoint & { download: string }>(endpoint: E, ...args: CallArgs<E>): Promise<Response>
}

/**
 * The relay answered success with data its contract does not allow: the portal and the relay
 * disagree (another version behind RELAY_URL), a bug to fix, not a refusal to show the user.
 */
export class RelayReplyMismatch extends Error {
  constructor(call: string, issues: string) {
    super(`the relay's reply to ${call} does not match its contract: ${issues}`)
    this.name = 'RelayReplyMismatch'
  }
}

/**
 * A relay that cannot be reached, times out or answers 5xx is thrown as a 503 route error
 * response, not an Error: React Router keeps its status and data in production, so the error
 * page can say the service is down and keep the session (docs/product.md), and actions can still catch it.
 */
function relayUnavailable(status: number, message: string) {
  return data({ relayUnavailable: true as const, status, message }, { status: 503 })
}

/** The page's budget is spent: a 504, shown as "service slow", the session kept like a 503's. */
function relaySlow() {
  return data({ relayUnavailable: true as const, status: 0, message: 'the relay did not answer within the page budget' }, { status: 504 })
}

export function isRelayUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('data' in error)) return false
  const payload = (error as { data: unknown }).data
  return !!payload && typeof payload === 'object' && (payload as { relayUnavailable?: unknown }).relayUnavailable === true
}

function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')
}

/**
 * `work`, or the signal's abort, whichever comes first. The embedded relay runs in this process:
 * its `fetch` is the relay's handler itself, which goes on past a Request's aborted signal (a
 * relay waiting on a database that does not answer), where a remote relay's `fetch` would reject.
 * So the page's deadline is kept here, whatever the transport; an answer that comes after it is
 * dropped, its body cancelled so nothing it streams (a download's cursor) stays open.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      reject(signal.reason)
      void work.then((late) => (late instanceof Response ? late.body?.cancel() : undefined)).catch(() => {})
    }
    if (signal.aborted) return abort()
    signal.addEventListener('abort', abort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

/** CallInput with its types erased, as the client handles every call alike. */
interface Input {
  params?: unknown
  query?: unknown
  body?: unknown
  idempotencyKey?: string
}

export function createRelayClient(options: RelayClientOptions): RelayClient {
  /** The envelope's data; with `download`, a success answer itself, its body unread. */
  async function send(method: string, url: URL, body: unknown, idempotencyKey: string | undefined, download = false): Promise<unknown> {
    const token = options.accessToken?.()
    const headers = new Headers(options.headers)
    headers.set('accept', 'application/json')
    if (body !== undefined) headers.set('content-type', 'application/json')
    if (token) headers.set('authorization', `Bearer ${token}`)
    if (idempotencyKey) headers.set('idempotency-key', idempotencyKey)

    const attempts = method === 'GET' ? 1 + relayReadRetries : 1
    const deadline = options.deadline ?? Number.POSITIVE_INFINITY
    let response: Response | undefined
    let text = ''
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now()
      if (left <= 0) throw relaySlow()
      // A download's body may take longer than any wait: its timer stops once the answer starts.
      const downloadTimer = download ? new AbortController() : null
      const stop = downloadTimer
        ? setTimeout(() => downloadTimer.abort(new DOMException('The relay did not answer in time', 'TimeoutError')), Math.min(relayTimeoutMs, left))
        : undefined
      const timeout = downloadTimer ? downloadTimer.signal : AbortSignal.timeout(Math.min(relayTimeoutMs, left))
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
      try {
        response = await untilAborted(
          options.transport(new Request(url, { method, headers, body: body === undefined ? undefined : stringifyRelayJson(body), signal })),
          signal,
        )
        clearTimeout(stop)
        if (download && response.ok) return response
        // Read under the same signal: a body cut off or trickling in fails here, not as a bare 500.
        text = await untilAborted(response.text(), signal)
        break
      } catch (error) {
        clearTimeout(stop)
        if (options.signal?.aborted) throw error
        if (Date.now() >= deadline) throw relaySlow()
        if (!isNetworkError(error) || attempt >= attempts) {
          throw relayUnavailable(0, 'network connection error')
        }
      }
    }

    let parsed: unknown = undefined
    if (text) {
      try {
        parsed = parseRelayJson(text)
      } catch {
        parsed = text
      }
    }
    const result = readEnvelope(`${method} ${url.pathname}`, response.status, parsed)
    if (result.success) return result.data
    if (response.status === 401 && token && options.onUnauthenticated) options.onUnauthenticated()
    if (response.status >= 500) throw relayUnavailable(response.status, result.message)
    throw new RelayCallError(result.message, response.status, result.code, result.details)
  }

  function request(endpoint: Endpoint, input: Input): { method: string; url: URL } {
    const url = new URL(fillPath(endpoint.path, (input.params ?? {}) as Record<string, string>), options.baseUrl)
    for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    return { method: endpoint.method.toUpperCase(), url }
  }

  async function call(endpoint: Endpoint, input: Input): Promise<unknown> {
    const { method, url } = request(endpoint, input)
    // Writes always carry a JSON body (`{}` for a call that declares none), as the relay reads one.
    const body = method === 'GET' || method === 'DELETE' ? undefined : (input.body ?? {})
    const data = await send(method, url, body, input.idempotencyKey)
    const reply = endpoint.response.safeParse(data)
    if (!reply.success) throw new RelayReplyMismatch(`${method} ${url.pathname}`, reply.error.message)
    return reply.data
  }

  // A client lives for one request, in which the layout and the page may both read the same
  // thing (user info): one relay call serves both. Any write forgets what was read before it.
  const reads = new Map<string, Promise<unknown>>()

  return {
    call<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<Reply<E>> {
      const input: Input = args[0] ?? {}
      if (endpoint.method !== 'get') {
        reads.clear()
        return call(endpoint, input) as Promise<Reply<E>>
      }
      const key = `${endpoint.path} ${JSON.stringify([input.params, input.query])}`
      let read = reads.get(key)
      if (!read) {
        read = call(endpoint, input)
        reads.set(key, read)
        // A failed read is not kept: a later caller in the request may try again.
        read.catch(() => reads.delete(key))
      }
      return read as Promise<Reply<E>>
    },
    download<E extends Endpoint & { download: string }>(endpoint: E, ...args: CallArgs<E>): Promise<Response> {
      const { url } = request(endpoint, args[0] ?? {})
      return send('GET', url, undefined, undefined, true) as Promise<Response>
    },
  }
}
