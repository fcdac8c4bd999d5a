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
    return refusalOutcome(back, error)
  }
}

/** Back to the page saying why the relay refused (or could not be reached); anything else is thrown on. */
export function refusalOutcome(back: string, error: unknown): Promise<Response> {
  if (isRelayUnavailable(error)) return redirectWithToast(back, { type: 'error', key: 'errors:network' })
  if (!(error instanceof RelayCallError)) throw error
  return redirectWithToast(back, { type: 'error', key: error.reason ? relayErrorKey(error) : 'admin:failed' })
}

/** A form was tampered with or is stale: nothing was sent. */
export function badForm(back: string): Promise<Response> {
  return redirectWithToast(back, { type: 'error', key: 'errors:reason.bad_request' })
}

/** The rows ticked in a list's bulk form (`name="id"`, app/components/admin/bulk-actions.tsx), or why nothing was done. */
export function bulkOutcome(back: string, formData: FormData, run: (rows: string[]) => Promise<ToastInput>): Promise<Response> {
  const rows = [...new Set(formData.getAll('id').filter((row): row is string => typeof row === 'string' && row !== ''))]
  if (rows.length === 0) return redirectWithToast(back, { type: 'error', key: 'admin:bulk.noneChosen' })
  return operatorOutcome(back, () => run(rows))
}

/** The rows an export reads: those ticked, each once. */
export function tickedRows(url: URL): string[] {
  return [...new Set(url.searchParams.getAll('id').filter((row) => row !== ''))]
}
