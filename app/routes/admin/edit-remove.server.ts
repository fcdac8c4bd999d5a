/**
 * The server half of a catalogue page whose rows carry `EditRemoveActions`
 * (`app/components/admin/edit-remove-actions.tsx`): `?edit=<id>` picks the row the page's form
 * edits, and a posted `id` names the row saved or removed.
 */
import { idSchema } from '#relay/contract/index.ts'
import type { ToastInput } from '#app/utils/toast.server.ts'
import { badForm, operatorOutcome } from './outcome.server.ts'

/** The row `?edit=<id>` names, whose values fill the form (with or without JavaScript). */
export function rowToEdit<T extends { id: string }>(request: Request, rows: readonly T[]): T | null {
  const id = new URL(request.url).searchParams.get('edit')
  return rows.find((row) => row.id === id) ?? null
}

/**
 * A removal is made and answered here (`remove` says what to toast); otherwise the row the form
 * saves: its id, or null for a new row. A forged id is answered too.
 */
export async function removeOrSave(formData: FormData, back: string, remove: (id: string) => Promise<ToastInput>): Promise<Response | { id: string | null }> {
  const id = formData.get('id') ? idSchema.safeParse(formData.get('id')) : null
  if (id && !id.success) return badForm(back)
  if (formData.get('intent') === 'remove') {
    if (!id) return badForm(back)
    return operatorOutcome(back, () => remove(id.data))
  }
  return { id: id?.data ?? null }
}
