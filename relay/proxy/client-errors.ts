/**
 * Refusals of the /v1 API, in each client's own error format (Anthropic's
 * `{type:'error', error:{type, message}}`, OpenAI's `{error:{message, type, code}}`), so the
 * official clients raise their usual error classes and show the message (docs/decisions/070).
 */

export type ClientApi = 'anthropic' | 'openai'

export const proxyErrorKinds = {
  invalid_request: { status: 400, anthropic: 'invalid_request_error', openai: ['invalid_request_error', null] },
  unauthenticated: { status: 401, anthropic: 'authentication_error', openai: ['invalid_request_error', 'invalid_api_key'] },
  no_subscription: { status: 403, anthropic: 'permission_error', openai: ['insufficient_quota', 'subscription_inactive'] },
  unknown_model: { status: 404, anthropic: 'not_found_error', openai: ['invalid_request_error', 'model_not_found'] },
  unknown_path: { status: 404, anthropic: 'not_found_error', openai: ['invalid_request_error', 'unknown_url'] },
  too_large: { status: 413, anthropic: 'request_too_large', openai: ['invalid_request_error', 'request_too_large'] },
  // 429 + Retry-After: a spent balance comes back at the next hourly refill (decision 070).
  insufficient_points: { status: 429, anthropic: 'rate_limit_error', openai: ['insufficient_quota', 'insufficient_quota'] },
  provider_failed: { status: 502, anthropic: 'api_error', openai: ['server_error', 'upstream_error'] },
  no_provider: { status: 503, anthropic: 'api_error', openai: ['server_error', 'no_provider'] },
  // The relay's database is out of reach for a moment: retry after Retry-After.
  unavailable: { status: 503, anthropic: 'api_error', openai: ['server_error', 'service_unavailable'] },
  provider_timeout: { status: 504, anthropic: 'timeout_error', openai: ['server_error', 'upstream_timeout'] },
  overloaded: { status: 529, anthropic: 'overloaded_error', openai: ['server_error', 'overloaded'] },
  internal: { status: 500, anthropic: 'api_error', openai: ['server_error', null] },
} as const satisfies Record<string, { status: number; anthropic: string; openai: readonly [string, string | null] }>

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
  // OpenAI clients know 503 for an overloaded service; 529 is Anthropic's own.
  return api === 'openai' && kind === 'overloaded' ? 503 : proxyErrorKinds[kind].status
}

export function proxyErrorResponse(api: ClientApi, error: ProxyError): Response {
  const kind = proxyErrorKinds[error.kind]
  const status = proxyErrorStatus(api, error.kind)
  const body =
    api === 'anthropic'
      ? { type: 'error', error: { type: kind.anthropic, message: error.message } }
      : { error: { message: error.message, type: kind.openai[0], param: null, code: kind.openai[1] } }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...error.headers },
  })
}
