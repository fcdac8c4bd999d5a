/**
 * A figure per name (calls per model, per provider) as horizontal bars, loaded like the usage
 * chart (bar-chart.tsx): the server, a browser without JavaScript and one still fetching
 * chart.js show HTML bars; once hydrated, the lazily loaded chart.js canvas replaces them. The
 * page shows the same numbers in a table beside it.
 */
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { ClientOnly } from 'remix-utils/client-only'
import type { BreakdownItem } from './breakdown-canvas.tsx'
import { numberFormat } from '#app/utils/intl-formats.ts'

const BreakdownCanvas = lazy(() => import('./breakdown-canvas.tsx'))

/** Rows shown: the largest ones; the table under the chart lists every row. */
export const breakdownMax = 8

export function BreakdownChart({ items, label, testId }: { items: BreakdownItem[]; label: string; testId?: string }) {
  const shown = items.slice(0, breakdownMax)
  const bars = <BreakdownBars items={shown} />
  return (
    <figure data-testid={testId}>
      <ClientOnly fallback={bars}>
        {() => (
          <Suspense fallback={bars}>
            <BreakdownCanvas items={shown} label={label} />
          </Suspense>
        )}
      </ClientOnly>
    </figure>
  )
}

/** The chart as HTML boxes sized in percent: what the server renders. */
function BreakdownBars({ items }: { items: BreakdownItem[] }) {
  const { i18n } = useTranslation()
  const numbers = numberFormat(i18n.language)
  const max = Math.max(1, ...items.map((item) => item.value))
  return (
    <ul aria-hidden="true" className="space-y-2" data-testid="breakdown-bars">
      {items.map((item) => (
        <li key={item.name} className="grid grid-cols-[minmax(0,9rem)_1fr_auto] items-center gap-2 text-xs sm:grid-cols-[minmax(0,14rem)_1fr_auto]">
          {/* Wrapped, not cut: two providers' names may differ only at their end (relay/proxy/providers.ts). */}
          <span className="text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-300">
            {item.name}
          </span>
          <span className="h-3 rounded-full bg-zinc-100 dark:bg-zinc-800">
            <span className="block h-3 rounded-full bg-indigo-500 dark:bg-indigo-400" style={{ width: `${Math.max(1, (item.value / max) * 100)}%` }} />
          </span>
          <span className="text-zinc-700 tabular-nums dark:text-zinc-200">{numbers.format(item.value)}</span>
        </li>
      ))}
    </ul>
  )
}
