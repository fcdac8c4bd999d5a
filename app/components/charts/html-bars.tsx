/**
 * A bar chart as HTML: what the server renders, what a browser without JavaScript keeps, and
 * what shows while chart.js loads. Bars are plain boxes sized in percent, so the labels stay
 * readable at any width (an SVG viewBox would shrink its text on a phone). Past a dozen bars
 * (hours of a day, days of a month) values stay off the bars and every few labels show: the
 * table beside the chart has every figure.
 */
import { useTranslation } from 'react-i18next'
import { cn } from '#app/components/ui/cn.ts'
import { chartHeight, chartNumbers, type ChartBar, type ChartUnit } from './bars.ts'

const labelledBars = 12

export function HtmlBars({ bars, unit = 'count', className }: { bars: ChartBar[]; unit?: ChartUnit; className?: string }) {
  const { i18n } = useTranslation()
  const max = Math.max(unit === 'share' ? 0.0001 : 1, ...bars.map((bar) => bar.value))
  const compact = chartNumbers(i18n.language, unit, true)
  const dense = bars.length > labelledBars
  const labelEvery = dense ? Math.ceil(bars.length / 6) : 1
  return (
    <div aria-hidden="true" className={cn('flex items-end', dense ? 'gap-px sm:gap-0.5' : 'gap-1.5 sm:gap-3', chartHeight, className)} data-testid="chart-bars">
      {bars.map((bar, i) => (
        <div key={bar.key} className="flex h-full min-w-0 flex-1 flex-col items-center gap-1.5">
          {/* The value sits above its bar; the track's top padding leaves room for the tallest. */}
          <div className={cn('flex w-full flex-1 flex-col items-center justify-end gap-1', dense ? 'pt-1' : 'pt-5')}>
            {dense ? null : <span className="text-[10px] font-medium text-zinc-600 tabular-nums sm:text-xs dark:text-zinc-300">{compact.format(bar.value)}</span>}
            <div
              className={cn('w-full max-w-10', dense ? 'rounded-t-sm' : 'rounded-t-md', bar.value > 0 ? 'bg-indigo-500 dark:bg-indigo-400' : 'bg-zinc-200 dark:bg-zinc-800')}
              style={{ height: bar.value > 0 ? `${Math.max(2, (bar.value / max) * 100)}%` : '2px' }}
            />
          </div>
          <span className={cn('text-[10px] whitespace-nowrap text-zinc-500 tabular-nums sm:text-xs dark:text-zinc-400', i % labelEvery === 0 ? null : 'invisible')}>{bar.label}</span>
        </div>
      ))}
    </div>
  )
}
