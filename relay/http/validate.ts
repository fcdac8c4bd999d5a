import type { z } from 'zod'
import { RelayError } from './relay-error.ts'

/**
 * Parses `input` with `schema`, or throws 400 `validation` with `details.fields`: the field
 * path (dotted; `source` itself for whole-input problems) → its messages.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, source: 'body' | 'query' | 'params'): z.output<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const fields: Record<string, string[]> = {}
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : source
    ;(fields[field] ??= []).push(issue.message)
  }
  throw new RelayError('validation', `invalid ${source}`, { fields })
}
