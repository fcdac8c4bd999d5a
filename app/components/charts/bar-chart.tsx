/**
 * A figure over time as bars (docs/architecture.md §7): the user's 10-day usage chart, the
 * console's calls, points and errors per hour or day. The server, a browser without JavaScript and
 * a browser still fetching chart.js all show the HTML bars; once hydrated, the lazily loaded
 * chart.js canvas replaces them. A table carries the same numbers for screen readers either way.
 */
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { ClientOnly } from 'remix-utils/client-only'
import { chartNumbers, type ChartBar, type ChartUnit } from './bars.ts'
import { HtmlBars } from './html-bars.tsx'

const BarCanvas = lazy(() => import('./bar-canvas.tsx'))

export function BarChart({ bars, label, unit = 'count' }: { bars: ChartBar[]; label: string; unit?: ChartUnit }) {
  const { i18n } = useTranslation()
  const numbers = chartNumbers(i18n.language, unit)
  const html = <HtmlBars bars={bars} unit={unit} />
  return (
    <figure>
      <ClientOnly fallback={html}>
        {() => (
          <Suspense fallback={html}>
            <BarCanvas bars={bars} label={label} unit={unit} />
          </Suspense>
        )}
      </ClientOnly>
      <table className="sr-only">
        <caption>{label}</caption>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.key}>
              <th scope="row">{bar.label}</th>
              <td>{numbers.format(bar.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
