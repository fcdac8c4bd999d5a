/**
 * Calendar days in UTC+8, the relay's days for usage and quotas (docs/decisions/021): a date
 * typed in a form (`YYYY-MM-DD`) and the instants that bound it. China has no daylight saving,
 * so a fixed offset is exact.
 */
const offsetMs = 8 * 3_600_000
/** The same fixed UTC+8, for showing instants in the zone these dates are typed in. */
export const utc8Zone = 'Asia/Shanghai'
export const dayMs = 86_400_000

/** The first instant of the day in UTC+8. */
export function startOfDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - offsetMs
}

/** The instant of a `datetime-local` value (`YYYY-MM-DDTHH:mm`) read in UTC+8. */
export function instantOf(dateTime: string): number {
  return Date.parse(`${dateTime}:00Z`) - offsetMs
}

/** The UTC+8 date an instant falls on. */
export function dateOf(timestamp: number): string {
  return new Date(timestamp + offsetMs).toISOString().slice(0, 10)
}
