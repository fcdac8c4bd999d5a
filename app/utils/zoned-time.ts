/**
 * A `datetime-local` value (`YYYY-MM-DDTHH:mm`, no zone of its own) read in a named time zone —
 * the reader's, as their browser reports it, so a form and the times listed beside it
 * (components/local-time.tsx) speak of the same clock. Without scripts the browser reports
 * nothing and both are UTC, which the page says.
 */
/** What the form assumes until scripts report the reader's zone: the zone LocalTime prints before hydration. */
export const fallbackZone = 'UTC'

// Formats here are made per call, not taken from utils/intl-formats.ts: the zone is what a browser
// sent, and a cache keyed by it would keep every spelling anyone posts.
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** How far `timeZone`'s clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(instant)
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value)
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'))
  return wall - Math.floor(instant / 1000) * 1000
}

/**
 * The instant at which `timeZone`'s clock reads `dateTime`. Twice over: the offset at the first
 * guess may differ from the offset at the answer across a daylight-saving change.
 */
export function instantInZone(dateTime: string, timeZone: string): number {
  const wall = Date.parse(`${dateTime}:00Z`)
  const guess = wall - offsetAt(wall, timeZone)
  return wall - offsetAt(guess, timeZone)
}

/** The zone's offset as people read it ("GMT+8"), at `instant`. */
export function offsetName(timeZone: string, instant: number): string {
  return new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(instant).find((p) => p.type === 'timeZoneName')!.value
}
