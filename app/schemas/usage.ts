/**
 * The usage log's filters (a GET form): bounds from the relay contract, dates as UTC+8 days
 * (docs/decisions/021-days-and-times.md); messages are translation keys.
 */
import { z } from 'zod'
import { callOutcomes, isId, usageFilterQuery, usageLogBounds } from '#relay/contract/index.ts'
import { calendarDateSchema } from '#relay/contract/days.ts'
import { dayMs, startOfDay } from '#app/utils/utc8-days.ts'

const dateField = calendarDateSchema('usage:filters.errors.date').optional()

export const usageFiltersSchema = z
  .object({
    key: z.string().refine(isId, 'usage:filters.errors.key').optional(),
    model: z.string().trim().max(usageLogBounds.model.max, 'validation:tooLong').optional(),
    outcome: z.enum(callOutcomes, { error: 'usage:filters.errors.outcome' }).optional(),
    from: dateField,
    to: dateField,
  })
  .refine((filters) => !filters.from || !filters.to || filters.from <= filters.to, { message: 'usage:filters.errors.range', path: ['to'] })
export type UsageFilters = z.infer<typeof usageFiltersSchema>

/** The relay's query for the filters: `to` includes its whole day. */
export function usageQuery(filters: UsageFilters): z.input<typeof usageFilterQuery> {
  return {
    key_id: filters.key,
    model: filters.model || undefined,
    outcome: filters.outcome,
    from: filters.from ? startOfDay(filters.from) : undefined,
    to: filters.to ? startOfDay(filters.to) + dayMs : undefined,
  }
}

/** The filters as a query string again, for the next page and the CSV link. */
export function filtersSearch(filters: UsageFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(name, value)
  const search = params.toString()
  return search ? `?${search}` : ''
}
