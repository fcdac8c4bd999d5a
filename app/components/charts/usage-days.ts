/** The data of the usage chart (docs/product.md, Constants: the last 10 days), shared by its HTML and canvas forms. */

/** Both forms of the chart take the same room, so nothing moves when the canvas replaces the bars. */
export const chartHeight = 'h-56 xl:h-64'

export interface UsageDay {
  /** The calendar day, `YYYY-MM-DD`. */
  date: string
  /** Points used that day. */
  points: number
}

/**
 * "11/20", "20/11", "11月20日"… in the reader's language. The day is a calendar date, not an
 * instant, so it is formatted in UTC: server and browser print the same label whatever their zones.
 */
export function dayLabel(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  )
}
