/** The hidden field of a creating form's key (app/utils/form-key.server.ts, docs/decisions/090). */
export const formKeyField = 'formKey'

export function FormKey({ value }: { value: string }) {
  return <input type="hidden" name={formKeyField} value={value} />
}
