/**
 * The /v1 API: raw Hono routes, not `defineRoute` ones — they speak the providers' own formats,
 * not the relay's envelope. Mounted by relay/app.ts; described in the OpenAPI document by
 * `describeProxyRoutes`.
 */
import type { Context, Hono } from 'hono'
import type { createDocument } from 'zod-openapi'
import { operationId } from '../contract/endpoint.ts'
import { apiKeySecurity } from '../http/openapi.ts'
import type { RelayEnv } from '../http/relay-env.ts'
import { mayCall } from '../keys/limits.ts'
import type { RelayServices } from '../services.ts'
import { drainingRefusal } from './calls-in-flight.ts'
import { proxyErrorResponse, ProxyError, type ClientApi } from './client-errors.ts'
import { anthropicCountTokens, anthropicMessages, openAiChat, openAiResponses, openAiResponsesCompact } from './dialects.ts'
import { Failover } from './failover.ts'
import { CallSlots } from './call-slots.ts'
import { authenticate, freeCall, meteredCall, type ProxyDeps } from './metered-call.ts'
import { anthropicModelList, anthropicPage, openAiModelList, servedModels } from './models.ts'
import { mountGeminiRoutes } from './gemini-routes.ts'
import { ProviderKeyBox } from './provider-keys.ts'
import { providerLabel } from './providers.ts'
import { RouteTable } from './route-table.ts'
import { countStaleHolds } from './stale-holds.ts'
import { mountRequestIds } from './request-id.ts'

export const proxyPaths = {
  messages: '/v1/messages',
  countTokens: '/v1/messages/count_tokens',
  chatCompletions: '/v1/chat/completions',
  responses: '/v1/responses',
  responsesCompact: '/v1/responses/compact',
  models: '/v1/models',
} as const

export function mountProxyRoutes(app: Hono<RelayEnv>, services: RelayServices): void {
  const routes = new RouteTable(services.db, new ProviderKeyBox(services.config.jwtSecrets), (id) =>
    services.logger.error('provider key unreadable: re-add the provider (JWT_SECRET rotated away?)', { provider: id }),
  )
  const { config } = services
  const failover = new Failover(services.circuits.breaker, { deadlineMs: config.providerRetryDeadlineMs, backoffMs: config.providerRetryBackoffMs }, services.logger, services.metrics)
  services.metrics?.attach({
    settlementsWaiting: () => services.settlements.waiting,
    staleHolds: () => countStaleHolds(services),
    circuits: () => routes.lastRead().map((provider) => [providerLabel(provider), services.circuits.breaker.state(provider.id).state === 'open'] as const),
  })
  const deps: ProxyDeps = { services, routes, failover, slots: new CallSlots(config.maxStreamsPerProcess, config.maxStreamsPerUser) }
  mountRequestIds(app, ['/v1/*', '/v1beta', '/v1beta/*'])
  // A relay told to drain takes no new call (calls-in-flight.ts); the calls it took go on.
  for (const path of ['/v1/*', '/v1beta/*']) {
    app.use(path, async (c, next) => (services.calls.draining ? proxyErrorResponse(path === '/v1beta/*' ? 'gemini' : apiOf(c), drainingRefusal(), c.get('requestId')) : next()))
  }
  // A base URL pasted with its /v1 (ANTHROPIC_BASE_URL=https://relay.example.com/v1) makes the
  // SDKs call /v1/v1/…: served the same, as nothing else could be meant (docs/decisions/070-refusals-in-the-clients-format.md).
  for (const prefix of ['', '/v1']) {
    app.post(prefix + proxyPaths.messages, (c) => meteredCall(c, deps, anthropicMessages))
    app.post(prefix + proxyPaths.countTokens, (c) => freeCall(c, deps, anthropicCountTokens))
    app.post(prefix + proxyPaths.chatCompletions, (c) => meteredCall(c, deps, openAiChat))
    app.post(prefix + proxyPaths.responses, (c) => meteredCall(c, deps, openAiResponses))
    app.post(prefix + proxyPaths.responsesCompact, (c) => meteredCall(c, deps, openAiResponsesCompact))
    app.get(prefix + proxyPaths.models, (c) => listModels(c, services))
  }
  mountGeminiRoutes(app, deps)
  // Anything else under /v1 is answered in the client's format too, not the relay's envelope, and
  // only once the key is known good: a wrong key is told so on any path (Codex retries and shows
  // only the last answer).
  app.all('/v1/*', async (c) => {
    const api = apiOf(c)
    try {
      await authenticate(c, services)
    } catch (error) {
      if (error instanceof ProxyError) return proxyErrorResponse(api, error, c.get('requestId'))
      throw error
    }
    return proxyErrorResponse(
      api,
      new ProxyError(
        'unknown_path',
        `The relay has no ${c.req.method} ${c.req.path}: it serves POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/chat/completions, POST /v1/responses, POST /v1/responses/compact and GET /v1/models. Set ANTHROPIC_BASE_URL to the relay's address without a path (https://relay.example.com), OPENAI_BASE_URL (Codex: base_url) to that address with /v1.`,
      ),
      c.get('requestId'),
    )
  })
}

/** Which client asks: Anthropic's send `anthropic-version`. */
function apiOf(c: Context<RelayEnv>): ClientApi {
  if (c.req.header('anthropic-version') || /^(\/v1)?\/v1\/messages/.test(c.req.path)) return 'anthropic'
  return /^(\/v1)?\/v1\/responses/.test(c.req.path) ? 'responses' : 'openai'
}

async function listModels(c: Context<RelayEnv>, services: RelayServices): Promise<Response> {
  const api = apiOf(c)
  try {
    const identity = await authenticate(c, services)
    const kind = api === 'anthropic' ? 'anthropic' : 'openai'
    // A key limited to some models lists only those.
    const models = (await servedModels(services.db, kind)).filter((model) => mayCall(identity.key, model.id))
    return c.json(kind === 'anthropic' ? anthropicModelList(models, anthropicPage(new URL(c.req.url).searchParams)) : openAiModelList(models))
  } catch (error) {
    if (error instanceof ProxyError) return proxyErrorResponse(api, error, c.get('requestId'))
    throw error
  }
}

type OpenApiDocument = ReturnType<typeof createDocument>

const object = { type: 'object' as const }
const json = (description: string) => ({ description, content: { 'application/json': { schema: object } } })
const anthropicExample = { model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] }
const openAiExample = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hello' }] }
const responsesExample = { model: 'gpt-6.2-sol', input: 'Hello' }
/** `example`: a body to start from, shown by the portal's reference and its curl command. */
const call = (path: string, summary: string, description: string, example: object) => ({
  operationId: operationId({ method: 'post', path }),
  tags: ['relay'],
  summary,
  description,
  security: apiKeySecurity,
  requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' as const, required: ['model'], examples: [example] } } } },
  responses: {
    '200': {
      description: 'The provider\'s answer, unchanged: JSON, or `text/event-stream` when the request sets `"stream": true`.',
      content: { 'application/json': { schema: object }, 'text/event-stream': { schema: { type: 'string' as const } } },
    },
    '400': json('Malformed request; on the Anthropic API also a model not priced here'),
    '401': json('Invalid or deleted API key, or an expired OAuth token'),
    '403': json('No package in force (none, expired or disabled), or an OAuth token without the api scope'),
    '404': json('Model not priced on this relay (OpenAI API)'),
    '429': json('Not enough points: the message says how many the call needs; Retry-After is the next hourly refill'),
    '502': json('Every provider failed (Retry-After)'),
    '503': json('No enabled provider serves the model (x-should-retry: false)'),
    '529': json('Every provider is overloaded (503 on the OpenAI API; Retry-After)'),
  },
})

/** Adds the /v1 API to the OpenAPI document of the envelope routes. */
export function describeProxyRoutes(document: OpenApiDocument): void {
  document.paths = {
    ...document.paths,
    [proxyPaths.messages]: {
      post: call(
        proxyPaths.messages,
        'Anthropic Messages API (Claude Code)',
        'Errors in Anthropic\'s format. Fixed-cost models: points taken before forwarding, given back if no answer comes. Variable-cost models: an estimate frozen, settled from the reported usage.',
        anthropicExample,
      ),
    },
    [proxyPaths.countTokens]: { post: { ...call(proxyPaths.countTokens, 'Anthropic token counting', "Under the rules of a call (a package in force, the key's models and limits), charged nothing, recorded in the usage log with 0 points.", { model: anthropicExample.model, messages: anthropicExample.messages }), responses: { '200': json('`{"input_tokens": n}`') } } },
    [proxyPaths.chatCompletions]: {
      post: call(
        proxyPaths.chatCompletions,
        'OpenAI chat completions',
        'Errors in OpenAI\'s format. A stream reports usage to the relay; the usage chunk reaches the client only if it set `stream_options.include_usage`.',
        openAiExample,
      ),
    },
    [proxyPaths.responses]: {
      post: call(
        proxyPaths.responses,
        'OpenAI Responses API (Codex CLI)',
        'Errors in OpenAI\'s format. The body is forwarded unchanged; usage is read from `response.completed` (cached input at its own rate, reasoning as output). `POST /v1/responses/compact` is served the same way.',
        responsesExample,
      ),
    },
    [proxyPaths.models]: {
      get: {
        operationId: operationId({ method: 'get', path: proxyPaths.models }),
        tags: ['relay'],
        summary: 'Models priced here and served by a provider',
        description:
          'Anthropic\'s list format when the request sends `anthropic-version` (paged by `limit`, 1–1000, and `after_id` or `before_id`; every model when no `limit` is given), else OpenAI\'s. A dated model whose undated alias is listed is left out.',
        security: apiKeySecurity,
        responses: { '200': json('Model list') },
      },
    },
  }
}
