/**
 * The API reference's try-it form (docs/decisions/100-one-declaration-per-call.md): which call, and the values typed for its
 * path and query parameters. The values are the relay's to judge: its validation answer is what
 * the form shows, as any client would get it.
 */
import { z } from 'zod'

const values = z.record(z.string(), z.string().max(512).optional()).optional()

export const tryCallSchema = z.object({
  operation: z.string().regex(/^\w{1,128}$/),
  // `.` or `..` in a path would lead the call to another path than the form's.
  path: z.record(z.string(), z.string().max(512).regex(/^(?!\.{1,2}$)/).optional()).optional(),
  query: values,
})
export type TryCall = z.infer<typeof tryCallSchema>
