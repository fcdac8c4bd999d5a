/**
 * The operators' call log's filters (a GET form, docs/console.md "Calls"): a user by id or
 * username, a key, model, provider, outcome, UTC+8 days as the usage log takes them, and the
 * request id a client got; messages are translation keys.
 */
import { z } from 'zod'
import { callOutcomes, isId, usageLogBounds, type adminCallsFilterQuery } from '#relay/contract/index.ts'
import { dateField, datesInOrder, daysRange } from './usage.ts'

const idField = z.string().trim().refine(isId, 'admin:calls.errors.id').optional()

export const adminCallsFiltersSchema = z
  .object({
    user: z.string().trim().max(64, 'validation:tooLong').optional(),
    key: idField,
    model: z.string().trim().max(usageLogBounds.model.max, 'validation:tooLong').optional(),
    provider: z.string().refine(isId, 'admin:calls.errors.provider').optional(),
    outcome: z.enum(callOutcomes, { error: 'admin:calls.errors.outcome' }).optional(),
    from: dateField('admin:calls.errors.date'),
    to: dateField('admin:calls.errors.date'),
    request: idField,
  })
  .refine(datesInOrder, { message: 'admin:calls.errors.range', path: ['to'] })
export type AdminCallsFilters = z.infer<typeof adminCallsFiltersSchema>

/** The relay's query for the filters. */
export function adminCallsQuery(filters: AdminCallsFilters): z.input<typeof adminCallsFilterQuery> {
  return {
    user: filters.user || undefined,
    key_id: filters.key,
    model: filters.model || undefined,
    provider_id: filters.provider,
    outcome: filters.outcome,
    ...daysRange(filters),
    request_id: filters.request,
  }
}
