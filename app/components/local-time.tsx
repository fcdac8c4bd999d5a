/**
 * A point in time in the reader's own time zone. The server cannot know that zone, so it prints
 * UTC and says so; once hydrated, the browser re-renders in its zone (the first client render
 * matches the server's, so hydration stays clean). See docs/decisions/021-days-and-times.md.
 */
import { useTranslation } from 'react-i18next'
import { useHydrated } from 'remix-utils/use-hydrated'

/**
 * `timeZone`: always this zone, said with the time, on the server and in the browser alike — where
 * the times sit beside a form that reads its input in that zone (utc8-days.ts).
 */
export function LocalTime({ ms, dateOnly = false, timeZone }: { ms: number; dateOnly?: boolean; timeZone?: string }) {
  const { i18n } = useTranslation()
  const hydrated = useHydrated()
  const zoneName = dateOnly ? undefined : ('short' as const)
  const zone = timeZone ? { timeZone, timeZoneName: zoneName } : hydrated ? {} : { timeZone: 'UTC', timeZoneName: zoneName }
  const text = new Intl.DateTimeFormat(i18n.language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(dateOnly ? {} : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const }),
    ...zone,
  }).format(ms)
  return (
    <time dateTime={new Date(ms).toISOString()} className="tabular-nums">
      {text}
    </time>
  )
}
