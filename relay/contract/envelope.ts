/**
 * The relay's wire format (docs/architecture.md §5). Shared by the relay, which writes it, and the portal's
 * relay client, which reads it. Nothing here may import relay internals: the portal imports it.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'

/**
 * Business codes. The HTTP status is the first three digits; the rest tells cases apart.
 * Every reason the relay can give is listed here so the portal can translate each one.
 */
export const errorCodes = {
  validation: 40000,
  bad_request: 40001,
  invalid_client: 40060,
  redirect_uri_mismatch: 40061,
  invalid_scope: 40062,
  invalid_grant: 40063,
  authorization_pending: 40064,
  slow_down: 40065,
  access_denied: 40066,
  expired_token: 40067,
  team_code_format: 40010,
  unauthenticated: 40100,
  invalid_credentials: 40101,
  token_expired: 40102,
  refresh_invalid: 40103,
  api_key_disabled: 40104,
  api_key_expired: 40105,
  forbidden: 40300,
  insufficient_scope: 40360,
  api_key_address_refused: 40362,
  view_only: 40363,
  two_factor_required: 40361,
  account_disabled: 40301,
  not_found: 40400,
  conflict: 40900,
  provider_exists: 40903,
  username_taken: 40901,
  email_taken: 40902,
  already_in_team: 40910,
  reset_already_pending: 40911,
  idempotency_in_progress: 40920,
  two_factor_enabled: 40930,
  two_factor_not_enabled: 40931,
  business_rule: 42200,
  code_invalid: 42201,
  code_expired: 42202,
  code_attempts_exceeded: 42203,
  old_password_wrong: 42204,
  invite_code_invalid: 42205,
  passwords_mismatch: 42206,
  device_code_invalid: 42260,
  device_code_expired: 42261,
  redeem_code_invalid: 42210,
  redeem_in_team: 42211,
  topup_needs_package: 42212,
  team_code_invalid: 42220,
  team_inactive: 42221,
  points_insufficient: 42230,
  reset_not_needed: 42231,
  points_need_package: 42232,
  ticket_transition_invalid: 42240,
  ticket_closed: 42241,
  api_key_limit: 42250,
  api_key_expiry_past: 42251,
  payload_too_large: 41300,
  idempotency_key_reused: 42270,
  two_factor_invalid: 42280,
  two_factor_challenge_invalid: 42281,
  rate_limited: 42900,
  internal: 50000,
  unavailable: 50300,
} as const

export type ErrorReason = keyof typeof errorCodes

/** Success: HTTP 2xx with code 0 and the call's reply in `data`. */
export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(0), data, message: z.literal('ok'), timestamp: z.int() })
}
export type SuccessEnvelope<T> = Omit<z.infer<ReturnType<typeof successEnvelopeSchema>>, 'data'> & { data: T }

/** Failure: a fitting HTTP status and a nonzero code. */
export const errorEnvelopeSchema = z
  .object({
    code: z.int().meta({ description: 'Nonzero business code; its first three digits are the HTTP status.' }),
    message: z.string(),
    error: z.object({
      details: z.looseObject({
        /** Stable machine-readable reason; the portal translates it. */
        reason: z.enum(Object.keys(errorCodes) as [ErrorReason, ...ErrorReason[]]),
        /** Per-field messages for validation errors (field name → messages). */
        fields: z.record(z.string(), z.array(z.string())).optional(),
        /** Seconds until a rate limit lets the caller try again. */
        retry_after: z.int().optional(),
      }),
    }),
  })
  .meta({ id: 'ErrorEnvelope' })
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>
export type ErrorDetails = ErrorEnvelope['error']['details']

/**
 * Calls that create something take an `Idempotency-Key` header (docs/decisions/005-forms.md): 16–128
 * URL-safe characters, random per intended action. A repeat gets the first reply.
 */
export const idempotencyKeyPattern = /^[A-Za-z0-9_-]{16,128}$/

export function statusOf(reason: ErrorReason): number {
  return Math.floor(errorCodes[reason] / 100)
}
