/**
 * A figure over time as bars (a user's points per day, the console's calls per hour), shared by
 * the chart's HTML and canvas forms.
 */
import { dayTimeZone } from '#relay/contract/days.ts'
import { dateTimeFormat, numberFormat } from '#app/utils/intl-formats.ts'

/** Both forms of the chart take the same room, so nothing moves when the canvas replaces the bars. */
export const chartHeight = 'h-56 xl:h-64'

export interface ChartBar {
  /** Unique among the bars. */
  key: string
  /** Under the bar: a day, an hour. */
  label: string
  value: number
}

/** How a chart prints its values: counts, or a share (0.25 → 25%). */
export type ChartUnit = 'count' | 'share'

export function chartNumbers(language: string, unit: ChartUnit, compact = false): Intl.NumberFormat {
  if (unit === 'share') return numberFormat(language, { style: 'percent', maximumFractionDigits: 1 })
  return numberFormat(language, compact ? { notation: 'compact', maximumFractionDigits: 1 } : {})
}

/**
 * "11/20", "20/11", "11月20日"… in the reader's language. The day is a calendar date, not an
 * instant, so it is formatted in UTC: server and browser print the same label whatever their zones.
 */
export function dayLabel(date: string, language: string): string {
  return dateTimeFormat(language, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))
}

/** The hour of an instant in UTC+8, the portal's days ("14:00"), the same on server and browser. */
export function hourLabel(ms: number, language: string): string {
  return dateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: dayTimeZone }).format(new Date(ms))
}
