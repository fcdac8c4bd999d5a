/**
 * The relay's days for usage and quotas (relay/contract/days.ts) as forms type them: a date
 * (`YYYY-MM-DD`) and the instants that bound it.
 */
import { dayOffsetMs } from '#relay/contract/days.ts'

export { dayMs } from '#relay/contract/days.ts'
/** The first instant of the day in UTC+8. */
export function startOfDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - dayOffsetMs
}

/** The UTC+8 date an instant falls on. */
export function dateOf(timestamp: number): string {
  return new Date(timestamp + dayOffsetMs).toISOString().slice(0, 10)
}
