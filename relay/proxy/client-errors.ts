/**
 * Refusals of the /v1 and /v1beta APIs, in each client's own error format (Anthropic's
 * `{type:'error', error:{type, message}}`, OpenAI's `{error:{message, type, code}}` — also for the
 * Responses API, whose clients such as Codex print `error.message` — and Google's
 * `{error:{code, message, status}}`), so the official clients raise their usual error classes and
 * show the message (docs/decisions/070-refusals-in-the-clients-format.md).
 */

export type ClientApi = 'anthropic' | 'openai' | 'responses' | 'gemini'

/**
 * Per kind: the status, each API's error type (and OpenAI's code), and whether a retry can help.
 * A refusal no retry can fix carries `x-should-retry: false`, which the Anthropic and OpenAI SDKs
 * (and Claude Code) honour: they stop after the first answer and show the message
 * (docs/decisions/070-refusals-in-the-clients-format.md). The others keep the SDKs' retries, paced by `Retry-After`.
 */
export const proxyErrorKinds = {
  invalid_request: { status: 400, retry: false, anthropic: 'invalid_request_error', openai: ['invalid_request_error', null] },
  unauthenticated: { status: 401, retry: false, anthropic: 'authentication_error', openai: ['invalid_request_error', 'invalid_api_key'] },
  // The key's owner switched it off or let it expire (keys/limits.ts).
  key_disabled: { status: 401, retry: false, anthropic: 'authentication_error', openai: ['invalid_request_error', 'api_key_disabled'] },
  // A model outside the key's allowed models.
  model_not_allowed: { status: 403, retry: false, anthropic: 'permission_error', openai: ['invalid_request_error', 'model_not_allowed'] },
  no_subscription: { status: 403, retry: false, anthropic: 'permission_error', openai: ['insufficient_quota', 'subscription_inactive'] },
  // A key used from an address outside its owner's allow-list (keys/networks.ts).
  key_address_refused: { status: 403, retry: false, anthropic: 'permission_error', openai: ['invalid_request_error', 'ip_not_allowed'] },
  // An OAuth token the user did not grant the `api` scope.
  insufficient_scope: { status: 403, retry: false, anthropic: 'permission_error', openai: ['invalid_request_error', 'insufficient_scope'] },
  // 404 on the OpenAI API; 400 on Anthropic's, where Claude Code replaces a 404's message with its own
  // "issue with the selected model" and the relay's would never be read (proxyErrorStatus).
  unknown_model: { status: 404, retry: false, anthropic: 'invalid_request_error', openai: ['invalid_request_error', 'model_not_found'] },
  unknown_path: { status: 404, retry: false, anthropic: 'not_found_error', openai: ['invalid_request_error', 'unknown_url'] },
  too_large: { status: 413, retry: false, anthropic: 'request_too_large', openai: ['invalid_request_error', 'request_too_large'] },
  // 429 + Retry-After: a spent balance comes back at the next hourly refill (decision 070).
  insufficient_points: { status: 429, retry: false, anthropic: 'rate_limit_error', openai: ['insufficient_quota', 'insufficient_quota'] },
  // The key's requests per minute or calls at once: a moment's wait helps (Retry-After).
  key_rate_limited: { status: 429, retry: true, anthropic: 'rate_limit_error', openai: ['rate_limit_exceeded', 'rate_limit_exceeded'] },
  // The key's points quota, total or today's: no retry helps before its owner raises it or the day ends.
  key_quota_exhausted: { status: 429, retry: false, anthropic: 'rate_limit_error', openai: ['insufficient_quota', 'key_quota_exceeded'] },
  // The user's calls at once in this relay process (MAX_STREAMS_PER_USER, call-slots.ts): one ending frees a slot.
  user_streams_limited: { status: 429, retry: true, anthropic: 'rate_limit_error', openai: ['rate_limit_exceeded', 'too_many_streams'] },
  // The team owner's cap on this member's points this hour or today: over when the hour or day ends (Retry-After).
  member_cap_reached: { status: 429, retry: false, anthropic: 'rate_limit_error', openai: ['insufficient_quota', 'member_cap_reached'] },
  provider_failed: { status: 502, retry: true, anthropic: 'api_error', openai: ['server_error', 'upstream_error'] },
  // No enabled provider serves the model: an operator's change, not a moment's, so no retries.
  no_provider: { status: 503, retry: false, anthropic: 'api_error', openai: ['server_error', 'no_provider'] },
  // Every provider of the model has an open circuit: retry after Retry-After, the end of the first cool-down (failover.ts).
  providers_unavailable: { status: 503, retry: true, anthropic: 'overloaded_error', openai: ['server_error', 'service_unavailable'] },
  // The relay's database is out of reach for a moment: retry after Retry-After.
  unavailable: { status: 503, retry: true, anthropic: 'api_error', openai: ['server_error', 'service_unavailable'] },
  // This relay process answers as many calls as MAX_STREAMS_PER_PROCESS allows (call-slots.ts): another process, or a moment later, can.
  relay_busy: { status: 503, retry: true, anthropic: 'overloaded_error', openai: ['server_error', 'relay_busy'] },
  provider_timeout: { status: 504, retry: true, anthropic: 'timeout_error', openai: ['server_error', 'upstream_timeout'] },
  overloaded: { status: 529, retry: true, anthropic: 'overloaded_error', openai: ['server_error', 'overloaded'] },
  internal: { status: 500, retry: true, anthropic: 'api_error', openai: ['server_error', null] },
} as const satisfies Record<string, { status: number; retry: boolean; anthropic: string; openai: readonly [string, string | null] }>

/** Seconds a client is asked to wait before retrying a provider failure or overload. */
export const providerRetryAfterSeconds = 5

export type ProxyErrorKind = keyof typeof proxyErrorKinds

export class ProxyError extends Error {
  constructor(
    readonly kind: ProxyErrorKind,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ProxyError'
  }
}

export function proxyErrorStatus(api: ClientApi, kind: ProxyErrorKind): number {
  // OpenAI and Google clients know 503 for an overloaded service; 529 is Anthropic's own.
  if (api !== 'anthropic' && kind === 'overloaded') return 503
  if (api === 'anthropic' && kind === 'unknown_model') return 400
  return proxyErrorKinds[kind].status
}

/** Google's canonical status name for an HTTP status, as its APIs pair them. */
export function googleStatus(status: number): string {
  switch (status) {
    case 400:
    case 413:
      return 'INVALID_ARGUMENT'
    case 401:
      return 'UNAUTHENTICATED'
    case 403:
      return 'PERMISSION_DENIED'
    case 404:
      return 'NOT_FOUND'
    case 429:
      return 'RESOURCE_EXHAUSTED'
    case 502:
    case 503:
      return 'UNAVAILABLE'
    case 504:
      return 'DEADLINE_EXCEEDED'
    default:
      return 'INTERNAL'
  }
}

/**
 * The refusal in the client's format. Its message ends with the call's request id, the one its
 * `x-relay-request-id` header carries: clients show the message, and a user quotes the id to find
 * the call in their usage log or in a ticket.
 */
export function proxyErrorResponse(api: ClientApi, error: ProxyError, requestId: string): Response {
  const kind = proxyErrorKinds[error.kind]
  const status = proxyErrorStatus(api, error.kind)
  const message = `${error.message} (request id ${requestId})`
  const body =
    api === 'anthropic'
      ? { type: 'error', error: { type: kind.anthropic, message } }
      : api === 'gemini'
        ? { error: { code: status, message, status: googleStatus(status) } }
        : { error: { message, type: kind.openai[0], param: null, code: kind.openai[1] } }
  const retry: Record<string, string> = kind.retry ? { 'retry-after': String(providerRetryAfterSeconds) } : { 'x-should-retry': 'false' }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...retry, ...error.headers },
  })
}
