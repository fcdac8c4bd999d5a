/**
 * The one way a form is set up (docs/conventions.md): Conform, validated by the same zod schema
 * the action uses, on submit first and then as the user types. Validating on blur moved the
 * layout under the pointer, so a click on the submit button could land elsewhere.
 *
 * `schema` may be a function of the submitter's `intent`, for pages whose buttons submit
 * different steps of one form (send code, then register).
 */
import { useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'

type SchemaOrPicker<S extends z.ZodType> = S | ((intent: FormDataEntryValue | null) => z.ZodType)

export function useZodForm<S extends z.ZodType>(
  schema: SchemaOrPicker<S>,
  options: { lastResult?: SubmissionResult<string[]> | null; defaultValue?: Partial<z.input<S>>; id?: string } = {},
) {
  return useForm<z.input<S> & Record<string, unknown>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: typeof schema === 'function' ? schema(formData.get('intent')) : schema }) as never,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
}
