/**
 * docs/product.md, Messages gives each flow its own failure messages ("redeem failed", "validation failed, check
 * the network"…). This wraps `relayRefusal` so a refusal the relay explained (a known reason)
 * keeps its own message, while an unexplained refusal and an outage get the flow's message.
 */
import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import { relayRefusal } from './forms.server.ts'
import { isRelayUnavailable, RelayCallError } from './relay-client.server.ts'

export interface FlowMessages {
  /** A refusal without a reason. */
  failed: string
  /** The relay could not be reached. */
  network: string
  /** Refusals that belong to one field. */
  fieldOf?: Partial<Record<string, string>>
  /** Refusals worded for this form's reader rather than with the reason's own message (an operator acting on someone else's account). */
  messageOf?: Partial<Record<string, string>>
}

export function flowRefusal<Output>(submission: Submission<Output>, error: unknown, messages: FlowMessages) {
  if (isRelayUnavailable(error)) return data({ result: submission.reply({ formErrors: [messages.network] }) }, { status: 503 })
  if (error instanceof RelayCallError && !error.reason) {
    return data({ result: submission.reply({ formErrors: [messages.failed] }) }, { status: error.status })
  }
  return relayRefusal(submission, error, { fieldOf: messages.fieldOf, messageOf: messages.messageOf })
}
