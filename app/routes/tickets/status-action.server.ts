/**
 * The close and reopen intents of the ticket list and the ticket page: one relay call, then
 * back where the user was with a toast (docs/product.md, Messages: ticket closed, ticket reopened, reopen failed).
 */
import type { RouterContextProvider } from 'react-router'
import { endpoints } from '#relay/contract/index.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { ticketStatusSchema } from '#app/schemas/tickets.ts'
import { relayErrorKey } from '#app/utils/forms.server.ts'
import { isRelayUnavailable, RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

const outcomes = {
  close: { endpoint: endpoints.tickets.close, done: 'tickets:toast.closed', failed: 'tickets:toast.closeFailed' },
  reopen: { endpoint: endpoints.tickets.reopen, done: 'tickets:toast.reopened', failed: 'tickets:toast.reopenFailed' },
} as const

/** `back`: where to return, a path of this portal. */
export async function changeTicketStatus(context: Readonly<RouterContextProvider>, formData: FormData, back: string) {
  const parsed = ticketStatusSchema.safeParse({ intent: formData.get('intent'), id: formData.get('id') })
  if (!parsed.success) return redirectWithToast(back, { type: 'error', key: 'errors:reason.bad_request' })
  const outcome = outcomes[parsed.data.intent]
  try {
    await getRelay(context).call(outcome.endpoint, { params: { id: parsed.data.id } })
  } catch (error) {
    if (isRelayUnavailable(error)) return redirectWithToast(back, { type: 'error', key: outcome.failed })
    if (!(error instanceof RelayCallError)) throw error
    // A reason the relay gave (say, the ticket changed meanwhile) explains more than "failed".
    return redirectWithToast(back, { type: 'error', key: error.reason ? relayErrorKey(error) : outcome.failed })
  }
  return redirectWithToast(back, { type: 'success', key: outcome.done })
}
