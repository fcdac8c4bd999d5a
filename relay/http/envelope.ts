import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ErrorEnvelope, SuccessEnvelope } from '../contract/envelope.ts'
import { errorCodes } from '../contract/envelope.ts'
import { stringifyRelayJson } from '../contract/json.ts'
import type { RelayError } from './relay-error.ts'

/**
 * Every header of the answer goes in here: @hono/node-server's Response is written from the
 * object it was given, so a header set on `response.headers` afterwards can be lost. A fresh
 * object per response: it writes into it, so a shared constant would carry one response's
 * headers into the next.
 */
export function jsonResponse(c: Context, body: unknown, status: ContentfulStatusCode, headers: Record<string, string> = {}): Response {
  return c.body(stringifyRelayJson(body), status, { ...headers, 'content-type': 'application/json; charset=utf-8' })
}

export function successResponse(c: Context, data: unknown, timestamp: number, status: ContentfulStatusCode = 200): Response {
  const body: SuccessEnvelope<unknown> = { code: 0, data, message: 'ok', timestamp }
  return jsonResponse(c, body, status)
}

export function errorResponse(c: Context, error: RelayError, headers: Record<string, string> = {}): Response {
  const body: ErrorEnvelope = {
    code: errorCodes[error.reason],
    message: error.message,
    error: { details: { reason: error.reason, ...error.details } },
  }
  return jsonResponse(c, body, error.status as ContentfulStatusCode, headers)
}
