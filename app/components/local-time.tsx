/**
 * A point in time in the reader's own time zone. The server cannot know that zone, so it prints
 * UTC and says so; once hydrated, the browser re-renders in its zone (the first client render
 * matches the server's, so hydration stays clean). See docs/decisions/021-days-and-times.md.
 */
import { useTranslation } from 'react-i18next'
import { useHydrated } from 'remix-utils/use-hydrated'
import { dateTimeFormat } from '#app/utils/intl-formats.ts'

export function LocalTime({ ms, dateOnly = false }: { ms: number; dateOnly?: boolean }) {
  const { i18n } = useTranslation()
  const hydrated = useHydrated()
  const zone = hydrated ? {} : { timeZone: 'UTC', timeZoneName: dateOnly ? undefined : ('short' as const) }
  const text = dateTimeFormat(i18n.language, {
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
