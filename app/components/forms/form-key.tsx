/** The hidden field of a creating form's key (app/utils/form-key.server.ts, docs/decisions/005-forms.md). */
export const formKeyField = 'formKey'

export function FormKey({ value }: { value: string }) {
  return <input type="hidden" name={formKeyField} value={value} />
}
