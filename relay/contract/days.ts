/**
 * The relay's day: a calendar day in UTC+8 (docs/decisions/021-days-and-times.md; China has no daylight saving, so
 * a fixed offset is exact). The one definition of it: usage days and the points history
 * (points/usage-days.ts), key quotas and member caps (keys/limits.ts), the portal's date inputs
 * (app/utils/utc8-days.ts), and the PostgreSQL functions, which get these numbers substituted
 * into their text (db/functions.ts).
 */
import { z } from 'zod'

export const hourMs = 3_600_000
export const dayMs = 86_400_000
export const dayOffsetMs = 8 * hourMs
/** The same day's zone by name, for `Intl` and for replies that tell clients how to read days. */
export const dayTimeZone = 'Asia/Shanghai'

/** The day number (days since the epoch, in UTC+8) of an instant. */
export function dayOf(ms: number): number {
  return Math.floor((ms + dayOffsetMs) / dayMs)
}

/** The first instant of a day. */
export function dayStart(day: number): number {
  return day * dayMs - dayOffsetMs
}

/**
 * A calendar day typed as `YYYY-MM-DD` that exists: `2026-02-30` is refused rather than read as
 * 2 March, as `Date.parse` would. `message` is what a refusal says (a translation key in forms).
 */
export function calendarDateSchema(message: string) {
  return z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((date) => {
      const ms = Date.parse(`${date}T00:00:00Z`)
      return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date
    }, message)
}
