/**
 * The console's one-button actions (change a status, approve, deny, disable…): one relay call,
 * then back to the page with a toast saying what happened, or why not (the relay's reason when it
 * gave one), with or without JavaScript.
 */
import { isRelayUnavailable, RelayCallError } from '#app/utils/relay-client.server.ts'
import { relayErrorKey } from '#app/utils/forms.server.ts'
import { redirectWithToast, type ToastInput } from '#app/utils/toast.server.ts'

export async function operatorOutcome(back: string, run: () => Promise<ToastInput>): Promise<Response> {
  try {
    return redirectWithToast(back, await run())
  } catch (error) {
    if (isRelayUnavailable(error)) return redirectWithToast(back, { type: 'error', key: 'errors:network' })
    if (!(error instanceof RelayCallError)) throw error
    return redirectWithToast(back, { type: 'error', key: error.reason ? relayErrorKey(error) : 'admin:failed' })
  }
}

/** A form was tampered with or is stale: nothing was sent. */
export function badForm(back: string): Promise<Response> {
  return redirectWithToast(back, { type: 'error', key: 'errors:reason.bad_request' })
}
