/**
 * The usage chart as HTML: what the server renders, what a browser without JavaScript keeps, and
 * what shows while chart.js loads. Bars are plain boxes sized in percent, so the labels stay
 * readable at any width (an SVG viewBox would shrink its text on a phone).
 */
import { useTranslation } from 'react-i18next'
import { cn } from '#app/components/ui/cn.ts'
import { chartHeight, dayLabel, type UsageDay } from './usage-days.ts'

export function UsageBars({ days, className }: { days: UsageDay[]; className?: string }) {
  const { i18n } = useTranslation()
  const max = Math.max(1, ...days.map((d) => d.points))
  const compact = new Intl.NumberFormat(i18n.language, { notation: 'compact', maximumFractionDigits: 1 })
  return (
    <div aria-hidden="true" className={cn('flex items-end gap-1.5 sm:gap-3', chartHeight, className)} data-testid="usage-bars">
      {days.map((day) => (
        <div key={day.date} className="flex h-full min-w-0 flex-1 flex-col items-center gap-1.5">
          {/* The value sits above its bar; the track's top padding leaves room for the tallest. */}
          <div className="flex w-full flex-1 flex-col items-center justify-end gap-1 pt-5">
            <span className="text-[10px] font-medium text-zinc-600 tabular-nums sm:text-xs dark:text-zinc-300">
              {compact.format(day.points)}
            </span>
            <div
              className={cn(
                'w-full max-w-10 rounded-t-md',
                day.points > 0 ? 'bg-indigo-500 dark:bg-indigo-400' : 'bg-zinc-200 dark:bg-zinc-800',
              )}
              style={{ height: day.points > 0 ? `${Math.max(2, (day.points / max) * 100)}%` : '2px' }}
            />
          </div>
          <span className="text-[10px] text-zinc-500 tabular-nums sm:text-xs dark:text-zinc-400">
            {dayLabel(day.date, i18n.language)}
          </span>
        </div>
      ))}
    </div>
  )
}
