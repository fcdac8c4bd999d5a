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
 * How a form words a relay refusal. docs/product.md, Messages gives each flow its own failure
 * messages ("redeem failed", "validation failed, check the network"…): a refusal the relay explained
 * (a known reason) keeps its own message, while an unexplained refusal and an outage get the flow's.
 */
export interface RefusalMessages {
  /** Fields whose values are not sent back (passwords, one-time codes). */
  hideFields?: string[]
  /** Refusals that belong to one field, by reason. */
  fieldOf?: Partial<Record<string, string>>
  /** Refusals worded for this form's reader rather than with the reason's own message (an operator acting on someone else's account). */
  messageOf?: Partial<Record<string, string>>
  /** A refusal without a reason; default: the relay's own message. */
  failed?: string
  /** The relay could not be reached; default `errors:network`. */
  network?: string
}

/**
 * Turns a relay refusal (or outage) into form errors: per-field messages when the relay named fields,
 * otherwise one form-level message. Anything that is not a relay error is rethrown.
 */
export function relayRefusal<Output>(submission: Submission<Output>, error: unknown, options: RefusalMessages = {}) {
  const { hideFields } = options
  if (isRelayUnavailable(error)) {
    return data({ result: submission.reply({ formErrors: [options.network ?? 'errors:network'], hideFields }) }, { status: 503 })
  }
  if (!(error instanceof RelayCallError)) throw error
  const key = error.reason ? (options.messageOf?.[error.reason] ?? relayErrorKey(error)) : (options.failed ?? relayErrorKey(error))
  const field = error.reason ? options.fieldOf?.[error.reason] : undefined
  const result = field ? submission.reply({ fieldErrors: { [field]: [key] }, hideFields }) : submission.reply({ formErrors: [key], hideFields })
  return data({ result }, { status: error.status })
}
