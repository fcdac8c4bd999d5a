/**
 * What differs between the APIs the relay speaks (Anthropic Messages, OpenAI chat completions and
 * Responses, Google's Gemini): how a request names its model and output
 * bound, which of the client's headers a provider may see, how the relay authenticates to the
 * provider, where the call goes, and how usage is reported. Everything else is shared
 * (metered-call.ts). Google's API names the model in the path, not the body: its dialect is made
 * for each call from the path (`geminiCall`).
 */
import { z } from 'zod'
import { ProxyError, type ClientApi } from './client-errors.ts'
import type { ProviderKind } from './providers.ts'
import { AnthropicUsageMeter, GeminiUsageMeter, isOpenAiUsageChunk, OpenAiUsageMeter, ResponsesUsageMeter, type UsageMeter } from './usage-meter.ts'

/** Output tokens assumed for the estimate when a request sets no bound. */
export const defaultOutputEstimate = 4096

export interface CallRequest {
  model: string
  stream: boolean
  /**
   * The most output the request may bill: its own bound (or `defaultOutputEstimate`), times the
   * choices it asks for, or its thinking budget when larger.
   */
  maxOutputTokens: number
  /** The hosted web searches the request allows, reserved for like output (Anthropic `web_search_*` tools' `max_uses`). */
  maxWebSearches?: number
  /** The bytes to send upstream: the client's own, unless the relay had to add something. */
  body: Uint8Array
  /** An SSE event to keep from the client (the usage chunk the relay asked for on its behalf). */
  drop?: (data: string) => boolean
  /** The body's `metadata.user_id`: Claude Code names its user and session there (session-affinity.ts). */
  metadataUserId?: string
  /** A session the body names (Responses `prompt_cache_key`; session-affinity.ts). */
  sessionId?: string
}

export interface Dialect {
  api: ClientApi
  providerKind: ProviderKind
  /** Appended to the provider's base URL. */
  path: string
  /** The path for another model name, for an API that names the model in the path (Gemini); the others name it in the body. */
  pathFor?: (model: string) => string
  /** Query parameters passed on (Claude Code calls `/v1/messages?beta=true`). */
  query: readonly string[]
  /** The only request headers of the client a provider sees (never its key, never hop-by-hop ones). */
  headers: readonly string[]
  /** The relay's own credentials for the provider. */
  authenticate(key: string): Record<string, string>
  parse(raw: Uint8Array): CallRequest
  meter(): UsageMeter
}

const bound = z.int().min(1).max(10_000_000)

function readJson<S extends z.ZodType>(raw: Uint8Array, schema: S): z.output<S> & Record<string, unknown> {
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'))
  } catch {
    throw new ProxyError('invalid_request', 'the request body is not valid JSON')
  }
  const result = schema.safeParse(json)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new ProxyError('invalid_request', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`)
  }
  return result.data as z.output<S> & Record<string, unknown>
}

function metadataUserId(request: Record<string, unknown>): string | undefined {
  const metadata = request.metadata
  const id = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).user_id : undefined
  return typeof id === 'string' && id !== '' ? id : undefined
}

const anthropicRequest = z.looseObject({
  model: z.string().min(1).max(128),
  max_tokens: bound.optional(),
  stream: z.boolean().optional(),
  // Thinking is billed as output: its budget is validated and reserved for like max_tokens.
  thinking: z.looseObject({ budget_tokens: bound.optional() }).optional(),
})

/**
 * Searches reserved for a `web_search_*` server tool that sets no `max_uses`: the API then allows
 * any number; this covers a research-heavy turn, and a call that searches more is still charged
 * every search, up to the shortfall ceiling beyond its hold.
 */
export const defaultWebSearchReserve = 10

/** The web searches an Anthropic request allows: the `max_uses` of each of its web search tools. */
function anthropicWebSearches(tools: unknown): number {
  if (!Array.isArray(tools)) return 0
  let searches = 0
  for (const tool of tools) {
    if (typeof tool !== 'object' || tool === null) continue
    const { type, max_uses: maxUses } = tool as Record<string, unknown>
    if (typeof type !== 'string' || !type.startsWith('web_search_')) continue
    searches += typeof maxUses === 'number' && Number.isSafeInteger(maxUses) && maxUses >= 0 ? maxUses : defaultWebSearchReserve
  }
  return searches
}

/** The output an Anthropic request may bill: its bound, or its thinking budget when that is larger. */
function anthropicOutputBound(request: z.output<typeof anthropicRequest>): number {
  return Math.max(request.max_tokens ?? defaultOutputEstimate, request.thinking?.budget_tokens ?? 0)
}

const anthropicHeaders = ['content-type', 'accept', 'user-agent', 'anthropic-version', 'anthropic-beta'] as const

const anthropicBase = {
  api: 'anthropic',
  providerKind: 'anthropic',
  query: ['beta'],
  headers: anthropicHeaders,
  authenticate: (key: string) => ({ 'x-api-key': key }),
  meter: () => new AnthropicUsageMeter(),
} as const

export const anthropicMessages: Dialect = {
  ...anthropicBase,
  path: '/v1/messages',
  parse(raw) {
    const request = readJson(raw, anthropicRequest)
    return {
      model: request.model,
      stream: request.stream === true,
      maxOutputTokens: anthropicOutputBound(request),
      maxWebSearches: anthropicWebSearches(request.tools),
      body: raw,
      metadataUserId: metadataUserId(request),
    }
  },
}

/** Free: counted by the provider, charged nothing. */
export const anthropicCountTokens: Dialect = {
  ...anthropicBase,
  path: '/v1/messages/count_tokens',
  parse(raw) {
    const request = readJson(raw, anthropicRequest)
    return { model: request.model, stream: false, maxOutputTokens: 0, body: raw, metadataUserId: metadataUserId(request) }
  },
}

/** The most choices (`n`) one chat completion may ask for. */
export const maxChoices = 16

const openAiRequest = z.looseObject({
  model: z.string().min(1).max(128),
  max_completion_tokens: bound.nullish(),
  max_tokens: bound.nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  // Each of the n choices is billed: bounded here, and reserved for n times over.
  n: z.int().min(1).max(maxChoices).nullish(),
})

export const openAiChat: Dialect = {
  api: 'openai',
  providerKind: 'openai',
  path: '/chat/completions',
  query: [],
  headers: ['content-type', 'accept', 'user-agent'],
  authenticate: (key) => ({ authorization: `Bearer ${key}` }),
  meter: () => new OpenAiUsageMeter(),
  parse(raw) {
    const request = readJson(raw, openAiRequest)
    const stream = request.stream === true
    const maxOutputTokens = (request.max_completion_tokens ?? request.max_tokens ?? defaultOutputEstimate) * (request.n ?? 1)
    const parsed = { model: request.model, stream, maxOutputTokens, metadataUserId: metadataUserId(request) }
    if (!stream || request.stream_options?.include_usage === true) return { ...parsed, body: raw }
    // A stream reports usage only when asked: ask, and keep that extra chunk from the client.
    const body = Buffer.from(JSON.stringify({ ...request, stream_options: { ...request.stream_options, include_usage: true } }))
    return { ...parsed, body, drop: isOpenAiUsageChunk }
  },
}

const responsesRequest = z.looseObject({
  model: z.string().min(1).max(128),
  max_output_tokens: bound.nullish(),
  stream: z.boolean().nullish(),
  prompt_cache_key: z.string().max(1024).nullish(),
})

/**
 * OpenAI Responses (Codex CLI): the body goes upstream unchanged, whatever tools and input items
 * it holds. `session-id` (Codex's thread) reaches the provider, which routes its prompt cache by it.
 */
function responses(path: string): Dialect {
  return {
    api: 'responses',
    providerKind: 'openai',
    path,
    query: [],
    headers: ['content-type', 'accept', 'user-agent', 'originator', 'session-id'],
    authenticate: (key) => ({ authorization: `Bearer ${key}` }),
    meter: () => new ResponsesUsageMeter(),
    parse(raw) {
      const request = readJson(raw, responsesRequest)
      return {
        model: request.model,
        stream: request.stream === true,
        maxOutputTokens: request.max_output_tokens ?? defaultOutputEstimate,
        body: raw,
        metadataUserId: metadataUserId(request),
        sessionId: request.prompt_cache_key || undefined,
      }
    },
  }
}

const geminiRequest = z.looseObject({
  generationConfig: z
    .looseObject({
      maxOutputTokens: bound.optional(),
      // Each candidate is billed: bounded here, and reserved for that many times over.
      candidateCount: z.int().min(1).max(maxChoices).optional(),
      // Thoughts are billed as output; -1 asks for a dynamic budget, 0 for none.
      thinkingConfig: z.looseObject({ thinkingBudget: z.int().min(-1).max(10_000_000).optional() }).optional(),
    })
    .optional(),
})

/** The calls of Google's API on a model (`POST /v1beta/models/{model}:{method}`) the relay serves. */
export const geminiMethods = ['generateContent', 'streamGenerateContent', 'countTokens'] as const
export type GeminiMethod = (typeof geminiMethods)[number]

/** A model name safe to put back into the provider's path: no slash, no query, no dot segment. */
export const geminiModelPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/**
 * One call of Google's Gemini API on `model`. `sse`: the client asked `alt=sse`; a
 * streamGenerateContent without it answers one JSON array, metered as a whole body. countTokens is
 * free, as Anthropic's count_tokens is.
 */
export function geminiCall(model: string, method: GeminiMethod, sse: boolean): Dialect {
  return {
    api: 'gemini',
    providerKind: 'gemini',
    path: `/v1beta/models/${model}:${method}`,
    pathFor: (upstream) => `/v1beta/models/${upstream}:${method}`,
    query: ['alt'],
    headers: ['content-type', 'accept', 'user-agent', 'x-goog-api-client'],
    authenticate: (key) => ({ 'x-goog-api-key': key }),
    meter: () => new GeminiUsageMeter(),
    parse(raw) {
      const config = readJson(raw, geminiRequest).generationConfig
      const bound = Math.max(config?.maxOutputTokens ?? defaultOutputEstimate, config?.thinkingConfig?.thinkingBudget ?? 0)
      return {
        model,
        stream: method === 'streamGenerateContent' && sse,
        maxOutputTokens: method === 'countTokens' ? 0 : bound * (config?.candidateCount ?? 1),
        body: raw,
      }
    },
  }
}

export const openAiResponses = responses('/responses')
/** Codex's context compaction: a model call too, answered as one JSON body. */
export const openAiResponsesCompact = responses('/responses/compact')
