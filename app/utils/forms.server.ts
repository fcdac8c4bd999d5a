/**
 * Action helpers of the one form pattern: invalid input and relay refusals both come back as a
 * Conform reply with status 400/4xx, so the form re-renders with the user's input and a
 * translated message, with or without JavaScript.
 */
import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import { isRelayUnavailable, RelayCallError } from './relay-client.server.ts'

/** The translation key for a relay refusal: its reason when we know it, else its own message. */
export function relayErrorKey(error: RelayCallError): string {
  const reason = error.details?.reason
  return typeof reason === 'string' ? `errors:reason.${reason}` : error.message
}

/** Seconds the relay asked to wait before trying again (a 429's `retry_after`), when it said. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!(error instanceof RelayCallError) || error.reason !== 'rate_limited') return undefined
  const seconds = error.details?.retry_after
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined
}

export function invalid<Output>(submission: Submission<Output>, hideFields?: string[]) {
  return data({ result: submission.reply({ hideFields }) }, { status: 400 })
}

/**
 * Turns a relay refusal (or outage) into form errors: per-field messages when the relay named fields,
 * otherwise one form-level message. Anything that is not a relay error is rethrown.
 */
export function relayRefusal<Output>(
  submission: Submission<Output>,
  error: unknown,
  options: { hideFields?: string[]; fieldOf?: Partial<Record<string, string>>; messageOf?: Partial<Record<string, string>> } = {},
) {
  if (isRelayUnavailable(error)) {
    return data({ result: submission.reply({ formErrors: ['errors:network'], hideFields: options.hideFields }) }, { status: 503 })
  }
  if (!(error instanceof RelayCallError)) throw error
  const key = (error.reason ? options.messageOf?.[error.reason] : undefined) ?? relayErrorKey(error)
  const field = error.reason ? options.fieldOf?.[error.reason] : undefined
  const result = field
    ? submission.reply({ fieldErrors: { [field]: [key] }, hideFields: options.hideFields })
    : submission.reply({ formErrors: [key], hideFields: options.hideFields })
  return data({ result }, { status: error.status })
}
