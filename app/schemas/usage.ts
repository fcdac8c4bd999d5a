/**
 * The usage log's filters (a GET form), and the parts the operators' call log shares: bounds from the relay contract, dates as UTC+8 days
 * (docs/decisions/021-days-and-times.md); messages are translation keys.
 */
import { z } from 'zod'
import { callOutcomes, isId, usageFilterQuery, usageLogBounds } from '#relay/contract/index.ts'
import { calendarDateSchema } from '#relay/contract/days.ts'
import { dayMs, startOfDay } from '#app/utils/utc8-days.ts'

/** A day the form names; `message` is the page's own translation key. */
export const dateField = (message: string) => calendarDateSchema(message).optional()

/** Whether a range's end is not before its start (either may be left out). */
export const datesInOrder = (filters: { from?: string; to?: string }) => !filters.from || !filters.to || filters.from <= filters.to

/** The instants that bound the days from `from` to `to`: `to` includes its whole day. */
export function daysRange(filters: { from?: string; to?: string }): { from?: number; to?: number } {
  return { from: filters.from ? startOfDay(filters.from) : undefined, to: filters.to ? startOfDay(filters.to) + dayMs : undefined }
}

export const usageFiltersSchema = z
  .object({
    key: z.string().refine(isId, 'usage:filters.errors.key').optional(),
    model: z.string().trim().max(usageLogBounds.model.max, 'validation:tooLong').optional(),
    outcome: z.enum(callOutcomes, { error: 'usage:filters.errors.outcome' }).optional(),
    from: dateField('usage:filters.errors.date'),
    to: dateField('usage:filters.errors.date'),
  })
  .refine(datesInOrder, { message: 'usage:filters.errors.range', path: ['to'] })
export type UsageFilters = z.infer<typeof usageFiltersSchema>

/** The relay's query for the filters. */
export function usageQuery(filters: UsageFilters): z.input<typeof usageFilterQuery> {
  return { key_id: filters.key, model: filters.model || undefined, outcome: filters.outcome, ...daysRange(filters) }
}

/** A call log's filters as a query string again, for the next page and the CSV link. */
export function filtersSearch(filters: Record<string, string | undefined>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(name, value)
  const search = params.toString()
  return search ? `?${search}` : ''
}
