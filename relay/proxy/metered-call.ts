/**
 * One relayed call, start to end: authenticate the caller (an API key, or an OAuth token with
 * `api`), read the model, price it, take or reserve the points, forward to the first provider
 * that answers, stream the answer back unchanged while metering it, then settle and record the
 * call. Refusals are written in the client's own API format (client-errors.ts).
 */
import type { Context } from 'hono'
import type { ModelCost } from '../contract/points.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import { clientIp } from '../http/client-ip.ts'
import { databaseRetryAfterSeconds } from '../http/error-handlers.ts'
import type { RelayEnv } from '../http/relay-env.ts'
import { none } from '../telemetry/relay-metrics.ts'
import { RelayError } from '../http/relay-error.ts'
import { KnownCallerRefusal } from '../keys/limits.ts'
import { securityHeaders } from '../http/security-headers.ts'
import { apiCaller, type ApiCaller } from '../oauth/api-caller.ts'
import type { TokenUsage } from '../points/model-costs.ts'
import type { RelayServices } from '../services.ts'
import { chargeWithinKeyLimits, credentialRefusal, recordRefusal } from './key-charge.ts'
import type { CallOutcome } from './call-log.ts'
import type { CallSlots } from './call-slots.ts'
import { ProxyError, proxyErrorResponse, proxyErrorStatus } from './client-errors.ts'
import { clientSide, type ClientSide } from './client-side.ts'
import type { CallRequest, Dialect } from './dialects.ts'
import { ClientGone, ProvidersFailed, type Failover, type Forwarded } from './failover.ts'
import { markAnswered } from './answered-holds.ts'
import { actualCharge } from './metering.ts'
import type { Provider } from './providers.ts'
import { withModel } from './model-mapping.ts'
import { responseStream, streamToClient, type StreamEnd } from './response-stream.ts'
import { requestIdHeader } from './request-id.ts'
import type { RouteTable } from './route-table.ts'
import { affinityKey } from './session-affinity.ts'
import { tokensOfBytes } from './usage-meter.ts'
import type { UpstreamRequest } from './upstream.ts'

/** Anthropic's own request limit; Claude Code sends images and long sessions. */
export const maxRequestBytes = 32 * 1024 * 1024
/** Error answers passed on from a provider are small; anything larger is cut here. */
const maxErrorBodyBytes = 64 * 1024
/** The response headers a client sees from the provider; its rate limits and organisation stay private. */
const answerHeaders = ['content-type', 'request-id', 'x-request-id'] as const

export interface ProxyDeps {
  services: RelayServices
  routes: RouteTable
  failover: Failover
  /** The calls this process answers at once (MAX_STREAMS_PER_PROCESS). */
  slots: CallSlots
}

/** A metered call: /v1/messages, /v1/chat/completions and /v1/responses. */
export async function meteredCall(c: Context<RelayEnv>, deps: ProxyDeps, dialect: Dialect): Promise<Response> {
  const { services } = deps
  const slot = deps.slots.take()
  if (!slot) return refusal(dialect, relayBusy(deps), deps, c.get('requestId'))
  const { clock } = services
  const started = performance.now()
  const startedAt = clock.now()
  // Read now: once the client has gone, its socket no longer knows its address.
  const caller = clientIp(c, services.config.trustProxy)
  const counted = services.metrics?.started(dialect.api)
  let userSlot: (() => void) | null = null
  const leave = () => {
    slot()
    userSlot?.()
    counted?.()
  }
  const span = services.tracing?.start(`${c.req.method} ${c.req.path}`, { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': dialect.providerKind })
  const id = c.get('requestId')
  // Counted from here, before any wait, so a relay told to drain (routes.ts refuses new calls) waits for it.
  const inFlight = services.calls.begin()
  try {
    // Its key perhaps from the cache: the freeze below confirms it (keys/service.ts).
    const identity = await authenticateCall(c, services, { id, api: dialect.api, streamed: false, clientIp: caller, startedAt, started })
    userSlot = deps.slots.takeForUser(identity.userId)
    if (!userSlot) throw userStreamsLimited(deps)
    const client = clientSide(c, inFlight)
    const uploadStarted = performance.now()
    const raw = await readBody(client)
    // The client's upload is its network's time, not the relay's (docs/decisions/120-figures-from-hourly-aggregates.md).
    const uploadMs = performance.now() - uploadStarted
    const request = dialect.parse(raw)
    const call = {
      id,
      userId: identity.userId,
      keyId: identity.keyId,
      clientId: identity.clientId,
      api: dialect.api,
      model: request.model,
      streamed: request.stream,
      clientIp: caller,
      startedAt,
    }
    // A model no provider serves, or one without a price, is a refused call of its own (key-charge.ts).
    const { cost, providers } = await route(deps, dialect, request.model, affinityKey((name) => c.req.header(name), request, identity)).catch((error: unknown) => {
      if (error instanceof ProxyError) recordRefusal(services, { ...call, started, uploadMs }, error)
      throw error
    })
    const inputEstimate = tokensOfBytes(raw.byteLength)
    // The key's controls first (key-charge.ts), then the points.
    const { charge, leaseId } = await chargeWithinKeyLimits(
      services,
      identity.key,
      {
        userId: identity.userId,
        model: request.model,
        cost,
        inputTokens: inputEstimate,
        maxOutputTokens: request.maxOutputTokens,
        webSearches: request.maxWebSearches,
        shortfallCeiling: services.config.callShortfallCeilingPoints,
      },
      { ...call, started, uploadMs },
    )
    const relayMs = performance.now() - started - uploadMs

    type End = { outcome: CallOutcome; status: number; providerId: string | null; usage: TokenUsage | null; firstByteMs?: number }
    const settlementOf = (end: End) => {
      const durationMs = performance.now() - started
      const tried = providers.find((p) => p.id === end.providerId)
      const upstreamModel = tried && tried.model !== request.model ? tried.model : null
      return { cost, usage: end.usage, leaseId, call: { ...end, ...call, durationMs, relayMs, upstreamModel }, provider: tried?.label ?? none }
    }
    // Settled after the answer, in a group with other calls' (settlements.ts); never awaited on
    // the way out, so an error answer is not held up either.
    const finish = (end: End) => {
      leave()
      const { provider, ...settlement } = settlementOf(end)
      const { durationMs } = settlement.call
      services.metrics?.ended({ ...end, api: dialect.api, model: cost.model, provider, durationMs, relayMs })
      span?.end({ ...spanUsage(end.usage), 'gen_ai.request.model': request.model, 'http.response.status_code': end.status, 'relay.provider': provider, 'relay.outcome': end.outcome, 'relay.points': actualCharge(cost, end.usage).actual }, end.outcome === 'failed')
      const settled = services.settlements.add({ ...settlement, charge })
      inFlight.end()
      return settled
    }
    /**
     * Before the answer reaches the client: the settlement as known now, on the hold, for the
     * sweep to charge and record the call if this relay dies before its own settlement is written
     * (answered-holds.ts). A write that fails leaves the call as it was before: given back if lost.
     */
    const answering = async (end: End) => {
      if (charge.kind !== 'hold') return
      const { provider: _provider, ...state } = settlementOf(end)
      await markAnswered(services.db, charge.holdId, state).catch((error: unknown) =>
        services.logger.warn('an answered call could not be marked on its hold', { hold: charge.holdId, error: String(error) }),
      )
    }

    let forwarded: Forwarded
    try {
      forwarded = await deps.failover.forward(providers, upstreamRequest(c, deps, dialect, request, client.gone), client.gone)
    } catch (error) {
      // No answer: whatever was taken goes back.
      if (error instanceof ClientGone) void finish({ outcome: 'abandoned', status: 499, providerId: error.providerId, usage: null })
      else if (error instanceof ProvidersFailed) void finish({ outcome: 'failed', status: proxyErrorStatus(dialect.api, error.kind), providerId: error.providerId, usage: null })
      else void finish({ outcome: 'failed', status: 500, providerId: null, usage: null })
      throw error
    }
    const { provider, response: upstream } = forwarded
    const firstByteMs = performance.now() - started
    if (upstream.status >= 400) {
      // The provider refused the request itself (400, 404, 413…): nothing used, nothing charged.
      try {
        return await passOn(forwarded)
      } finally {
        void finish({ outcome: 'refused', status: upstream.status, providerId: provider.id, usage: null, firstByteMs })
      }
    }
    const meter = dialect.meter()
    const onEnd = (end: StreamEnd) =>
      finish({ outcome: end, status: upstream.status, providerId: provider.id, usage: meter.usage(end === 'completed', inputEstimate), firstByteMs })
    const answered = { status: upstream.status, providerId: provider.id, firstByteMs }
    // Written to the Node response here, past the middleware that names the request on the answers Hono writes.
    const nodeHeaders = (streamed: boolean) => ({ ...Object.fromEntries(answerHeadersOf(forwarded, streamed)), ...securityHeaders(services.config.publicUrl), [requestIdHeader]: id })
    if (request.stream && client.outgoing) {
      await answering({ ...answered, outcome: 'cut', usage: meter.usage(false, inputEstimate) })
      streamToClient({ upstream, meter, drop: request.drop, onEnd, outgoing: client.outgoing, status: upstream.status, headers: nodeHeaders(true) })
      return alreadySent(upstream.status)
    }
    const { body, filled } = responseStream({ upstream, meter, streamed: request.stream, drop: request.drop, onEnd })
    // A JSON answer is of no use to the client before its end: it goes out whole when it fits the
    // body's buffer, head and body in one write with their length, where it was two (the head,
    // then the body with the end of its chunked encoding; docs/decisions/108-money-rules-on-postgres.md).
    const whole = request.stream ? null : await filled
    await answering(whole ? { ...answered, outcome: 'completed', usage: meter.usage(true, inputEstimate) } : { ...answered, outcome: 'cut', usage: meter.usage(false, inputEstimate) })
    if (whole && client.outgoing) {
      // Straight to the Node response, as a stream is: no web Response for @hono/node-server to take apart.
      if (!client.outgoing.destroyed) client.outgoing.writeHead(upstream.status, { ...nodeHeaders(false), 'content-length': whole.byteLength }).end(whole)
      return alreadySent(upstream.status)
    }
    return new Response(whole ?? body, { status: upstream.status, headers: answerHeadersOf(forwarded, request.stream) })
  } catch (error) {
    leave()
    inFlight.end()
    const answer = refusal(dialect, error, deps, id)
    span?.end({ 'http.response.status_code': answer.status, 'relay.outcome': 'refused', ...(error instanceof ProxyError ? { 'relay.refusal': error.kind } : {}) }, answer.status >= 500)
    return answer
  }
}

/** The answer is written to the Node response already: @hono/node-server leaves it alone. */
function alreadySent(status: number): Response {
  return new Response(null, { status, headers: { 'x-hono-already-sent': '1' } })
}

function relayBusy({ slots }: ProxyDeps): ProxyError {
  return new ProxyError(
    'relay_busy',
    `This relay process is answering as many calls as it may at once (${slots.limit}, MAX_STREAMS_PER_PROCESS): try again in a few seconds.`,
  )
}

function userStreamsLimited({ slots }: ProxyDeps): ProxyError {
  return new ProxyError(
    'user_streams_limited',
    `This account already has ${slots.perUser} calls in flight on this relay process, its limit (MAX_STREAMS_PER_USER): wait for one to end.`,
    { 'retry-after': '1' },
  )
}

/** A call's usage in OpenTelemetry's GenAI terms. */
function spanUsage(usage: TokenUsage | null): Record<string, number> {
  if (!usage) return {}
  return {
    'gen_ai.usage.input_tokens': usage.input_tokens,
    'gen_ai.usage.output_tokens': usage.output_tokens,
    'gen_ai.usage.cache_read.input_tokens': usage.cache_read_tokens ?? 0,
    'gen_ai.usage.cache_creation.input_tokens': usage.cache_write_tokens ?? 0,
  }
}

/**
 * POST /v1/messages/count_tokens: under the rules of a call — a package in force, the key's models,
 * rate and concurrency limits — forwarded, charged nothing, and recorded with 0 points.
 */
export async function freeCall(c: Context<RelayEnv>, deps: ProxyDeps, dialect: Dialect): Promise<Response> {
  const { services } = deps
  const started = performance.now()
  const startedAt = services.clock.now()
  const caller = clientIp(c, services.config.trustProxy)
  const id = c.get('requestId')
  const inFlight = services.calls.begin()
  try {
    const identity = await authenticateCall(c, services, { id, api: dialect.api, streamed: false, clientIp: caller, startedAt, started })
    const client = clientSide(c, inFlight)
    const uploadStarted = performance.now()
    const request = dialect.parse(await readBody(client))
    const uploadMs = performance.now() - uploadStarted
    const call = { id, userId: identity.userId, keyId: identity.keyId, clientId: identity.clientId, api: dialect.api, model: request.model, streamed: false, clientIp: caller, startedAt }
    const routed = await route(deps, dialect, request.model, affinityKey((name) => c.req.header(name), request, identity)).catch((error: unknown) => {
      if (error instanceof ProxyError) recordRefusal(services, { ...call, started, uploadMs }, error)
      throw error
    })
    const cost: ModelCost = { ...routed.cost, kind: 'fixed', points_per_call: 0 }
    const upfront = { userId: identity.userId, model: request.model, cost, inputTokens: 0, maxOutputTokens: 0, shortfallCeiling: 0, packageRequired: true }
    const { charge, leaseId } = await chargeWithinKeyLimits(services, identity.key, upfront, { ...call, started, uploadMs })
    const relayMs = performance.now() - started - uploadMs
    const finish = (end: { outcome: CallOutcome; status: number; providerId: string | null; firstByteMs?: number }) => {
      const durationMs = performance.now() - started
      const tried = routed.providers.find((p) => p.id === end.providerId)
      const provider = tried?.label ?? none
      const upstreamModel = tried && tried.model !== request.model ? tried.model : null
      services.metrics?.ended({ ...end, api: 'count_tokens', model: cost.model, provider, durationMs, relayMs, usage: null })
      void services.settlements.add({ charge, cost, usage: null, leaseId, call: { ...end, ...call, usage: null, durationMs, relayMs, upstreamModel } })
      inFlight.end()
    }
    let forwarded: Forwarded
    try {
      forwarded = await deps.failover.forward(routed.providers, upstreamRequest(c, deps, dialect, request, client.gone), client.gone)
    } catch (error) {
      if (error instanceof ClientGone) finish({ outcome: 'abandoned', status: 499, providerId: error.providerId })
      else if (error instanceof ProvidersFailed) finish({ outcome: 'failed', status: proxyErrorStatus(dialect.api, error.kind), providerId: error.providerId })
      else finish({ outcome: 'failed', status: 500, providerId: null })
      throw error
    }
    const firstByteMs = performance.now() - started
    try {
      return await passOn(forwarded)
    } finally {
      const status = forwarded.response.status
      finish({ outcome: status >= 400 ? 'refused' : 'completed', status, providerId: forwarded.provider.id, firstByteMs })
    }
  } catch (error) {
    inFlight.end()
    return refusal(dialect, error, deps, id)
  }
}

/**
 * A metered or free call's caller, as `authenticate`; a refusal of a known caller (a key switched
 * off, expired or used from elsewhere, a token without `api`) is recorded as their call, before
 * its body is read, so with no model.
 */
async function authenticateCall(
  c: Context<RelayEnv>,
  services: RelayServices,
  call: { id: string; api: Dialect['api']; streamed: boolean; clientIp: string; startedAt: number; started: number },
): Promise<ApiCaller> {
  try {
    return await apiCaller(c, services, { cached: true })
  } catch (error) {
    if (!(error instanceof RelayError)) throw error
    const refused = credentialRefusal(error)
    if (error instanceof KnownCallerRefusal) recordRefusal(services, { ...call, ...error.caller, model: '', uploadMs: 0 }, refused)
    throw refused
  }
}

/** The caller (an API key, or an OAuth token with the `api` scope), or a refusal in the client's format. */
export async function authenticate(c: Context<RelayEnv>, services: RelayServices, options: { cached?: boolean } = {}): Promise<ApiCaller> {
  try {
    return await apiCaller(c, services, options)
  } catch (error) {
    throw error instanceof RelayError ? credentialRefusal(error) : error
  }
}

/** The model's price and the providers to try; refuses when either is missing. */
async function route({ routes }: ProxyDeps, dialect: Dialect, model: string, session: string): Promise<{ cost: ModelCost; providers: Provider[] }> {
  const { cost, providers } = await routes.route(dialect.providerKind, model, session)
  if (!cost) {
    throw new ProxyError(
      'unknown_model',
      `The model ${model} has no price on this relay, so it cannot be used here: pick one listed by GET /v1/models (Claude Code: --model or ANTHROPIC_MODEL), or ask the operator to price it (model-cost set).`,
    )
  }
  if (providers.length === 0) {
    throw new ProxyError(
      'no_provider',
      `No provider of this relay serves ${model}: every provider for it is disabled or none matches it. The operator must add or enable one (npm run admin -- provider add|enable) whose --models matches ${model}.`,
    )
  }
  return { cost, providers }
}

function upstreamRequest(c: Context<RelayEnv>, { services }: ProxyDeps, dialect: Dialect, request: CallRequest, gone: AbortSignal) {
  const incoming = new URL(c.req.url)
  const headers: Record<string, string> = {}
  for (const name of dialect.headers) {
    const value = c.req.header(name)
    if (value !== undefined) headers[name] = value
  }
  // Plain bytes back: usage is read from them as they pass.
  headers['accept-encoding'] = 'identity'
  return (provider: Provider): UpstreamRequest => {
    // A provider's model mapping (model-mapping.ts): the name goes in the path or in the body.
    const mapped = provider.model !== request.model
    const url = new URL(provider.baseUrl + (mapped && dialect.pathFor ? dialect.pathFor(provider.model) : dialect.path))
    for (const name of dialect.query) {
      const value = incoming.searchParams.get(name)
      if (value !== null) url.searchParams.set(name, value)
    }
    return {
      url,
      headers: { ...headers, ...dialect.authenticate(provider.key) },
      body: mapped && !dialect.pathFor ? withModel(request.body, provider.model) : request.body,
      connectTimeoutMs: services.config.providerConnectTimeoutMs,
      http2: services.config.providerHttp2,
      idleTimeoutMs: services.config.providerTimeoutMs,
      signal: gone,
    }
  }
}

/** The body up to `maxRequestBytes`, counted as it arrives (a missing Content-Length is no way around it). */
async function readBody({ body, contentLength }: ClientSide): Promise<Uint8Array> {
  const tooLarge = () => new ProxyError('too_large', `The request is larger than ${maxRequestBytes / 1024 / 1024} MB.`)
  if (contentLength > maxRequestBytes) throw tooLarge()
  if (!body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  // Leaving the loop early (too large) stops the body's stream.
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > maxRequestBytes) throw tooLarge()
    chunks.push(chunk)
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
}

/** A whole (small) answer passed on as it came: count_tokens, or the provider's own refusal. */
async function passOn(forwarded: Forwarded): Promise<Response> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of forwarded.response.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength
      if (size > maxErrorBodyBytes) {
        forwarded.response.abort()
        break
      }
      chunks.push(chunk)
    }
  } catch {
    throw new ProxyError('provider_failed', 'The upstream provider broke off its answer.')
  }
  return new Response(Buffer.concat(chunks), { status: forwarded.response.status, headers: answerHeadersOf(forwarded, false) })
}

function answerHeadersOf({ response }: Forwarded, streamed: boolean): Headers {
  const headers = new Headers()
  for (const name of answerHeaders) {
    const value = response.headers[name]
    if (typeof value === 'string') headers.set(name, value)
  }
  if (streamed) {
    headers.set('cache-control', 'no-cache')
    // Reverse proxies in front of the relay (nginx) must not hold the stream back.
    headers.set('x-accel-buffering', 'no')
  }
  return headers
}

function refusal(dialect: Dialect, error: unknown, { services }: ProxyDeps, requestId: string): Response {
  // A provider's failure is counted with the call (the usage log has it); the relay's own refusals here.
  if (error instanceof ProxyError && !(error instanceof ProvidersFailed)) services.metrics?.refused(error.kind)
  if (error instanceof ProxyError) return proxyErrorResponse(dialect.api, error, requestId)
  if (error instanceof ClientGone) return new Response(null, { status: 499 })
  if (isDatabaseUnavailable(error)) {
    services.logger.warn('relayed call refused: database unavailable', { api: dialect.api, error: (error as Error).message })
    return proxyErrorResponse(
      dialect.api,
      new ProxyError('unavailable', 'The relay cannot reach its database for a moment: try again shortly.', { 'retry-after': String(databaseRetryAfterSeconds) }),
      requestId,
    )
  }
  services.logger.error('relayed call failed', { api: dialect.api, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  return proxyErrorResponse(dialect.api, new ProxyError('internal', 'Internal error of the relay.'), requestId)
}
