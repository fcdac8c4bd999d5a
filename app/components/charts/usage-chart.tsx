/**
 * The 10-day usage chart (docs/product.md; docs/architecture.md §7). The server, a browser without JavaScript and a
 * browser still fetching chart.js all show the HTML bars; once hydrated, the lazily loaded
 * chart.js canvas replaces them. A table carries the same numbers for screen readers either way.
 */
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { ClientOnly } from 'remix-utils/client-only'
import { UsageBars } from './usage-bars.tsx'
import { dayLabel, type UsageDay } from './usage-days.ts'

const UsageCanvas = lazy(() => import('./usage-canvas.tsx'))

export function UsageChart({ days, label }: { days: UsageDay[]; label: string }) {
  const { i18n } = useTranslation()
  const numbers = new Intl.NumberFormat(i18n.language)
  const bars = <UsageBars days={days} />
  return (
    <figure>
      <ClientOnly fallback={bars}>
        {() => (
          <Suspense fallback={bars}>
            <UsageCanvas days={days} label={label} />
          </Suspense>
        )}
      </ClientOnly>
      <table className="sr-only">
        <caption>{label}</caption>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{dayLabel(day.date, i18n.language)}</th>
              <td>{numbers.format(day.points)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
