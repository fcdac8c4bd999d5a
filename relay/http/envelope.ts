import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ErrorEnvelope, SuccessEnvelope } from '../contract/envelope.ts'
import { errorCodes } from '../contract/envelope.ts'
import { stringifyRelayJson } from '../contract/json.ts'
import type { RelayError } from './relay-error.ts'

export function jsonResponse(c: Context, body: unknown, status: ContentfulStatusCode): Response {
  // A fresh headers object per response: @hono/node-server's Response keeps the object it is
  // given and writes into it, so a shared constant would carry one response's headers into the next.
  return c.body(stringifyRelayJson(body), status, { 'content-type': 'application/json; charset=utf-8' })
}

export function successResponse(c: Context, data: unknown, timestamp: number, status: ContentfulStatusCode = 200): Response {
  const body: SuccessEnvelope<unknown> = { code: 0, data, message: 'ok', timestamp }
  return jsonResponse(c, body, status)
}

export function errorResponse(c: Context, error: RelayError): Response {
  const body: ErrorEnvelope = {
    code: errorCodes[error.reason],
    message: error.message,
    error: { details: { reason: error.reason, ...error.details } },
  }
  return jsonResponse(c, body, error.status as ContentfulStatusCode)
}
