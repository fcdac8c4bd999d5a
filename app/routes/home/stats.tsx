/**
 * The service figures, measured by the relay (GET /api/public/figures, docs/decisions/120-figures-from-hourly-aggregates.md): each
 * says its period; a figure without enough data behind it yet shows the target, labelled as one.
 */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { container } from './section.tsx'
import type { PublicFigures } from '#relay/contract/index.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { availabilityPercent, formatPercent, formatWait } from '#app/utils/public-figures.ts'

interface Figure {
  key: 'uptime' | 'latency' | 'savings' | 'support'
  /** The measured value, or null to show the target. */
  value: string | null
  /** What the measured value covers. */
  period: string
}

function figuresOf(figures: PublicFigures | null, t: ReturnType<typeof useTranslation<'marketing'>>['t'], language: string): Figure[] {
  const traffic = figures?.traffic
  const measured = t('stats.measured', { days: traffic?.period_days ?? 30 })
  const enoughCalls = traffic !== undefined && figures !== null && traffic.calls >= figures.thresholds.calls
  const availability = traffic ? availabilityPercent(traffic.calls, traffic.failures) : null
  const enoughLatency = traffic !== undefined && figures !== null && traffic.latency_samples >= figures.thresholds.latency_samples
  const tickets = figures?.tickets
  const enoughReplies = tickets !== undefined && figures !== null && tickets.replied >= figures.thresholds.ticket_replies
  return [
    {
      key: 'uptime',
      value: enoughCalls && availability !== null ? formatPercent(availability, language) : null,
      period: measured,
    },
    {
      key: 'latency',
      value: enoughLatency && traffic.median_latency_below_ms !== null ? t('stats.latency.value', { ms: traffic.median_latency_below_ms }) : null,
      period: measured,
    },
    {
      key: 'savings',
      value: figures?.savings_percent != null ? t('stats.savings.value', { percent: figures.savings_percent }) : null,
      period: t('stats.computed'),
    },
    {
      key: 'support',
      value: enoughReplies && tickets.median_first_reply_ms !== null ? formatWait(tickets.median_first_reply_ms, language) : null,
      period: t('stats.measured', { days: tickets?.period_days ?? 30 }),
    },
  ]
}

export function Stats({ figures }: { figures: PublicFigures | null }) {
  const { t, i18n } = useTranslation('marketing')
  return (
    <section aria-labelledby="stats-title" className={container}>
      <h2 id="stats-title" className="sr-only">
        {t('stats.heading')}
      </h2>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-2xl bg-zinc-200 ring-1 ring-zinc-200 lg:grid-cols-4 dark:bg-zinc-800 dark:ring-zinc-800">
        {figuresOf(figures, t, i18n.language).map(({ key, value, period }) => (
          <div key={key} data-testid={`stat-${key}`} className="flex flex-col-reverse justify-end gap-1 bg-white px-5 py-6 sm:px-8 sm:py-8 dark:bg-zinc-900">
            <dt className="text-sm text-zinc-600 dark:text-zinc-400">
              {t(`stats.${key}.label`)}
              {value === null ? (
                <Badge className="mt-1.5 block w-fit">{t('stats.target')}</Badge>
              ) : (
                <span className="mt-1 block text-xs text-zinc-500 dark:text-zinc-500">{period}</span>
              )}
            </dt>
            <dd
              className={cn(
                'font-semibold tracking-tight tabular-nums',
                value === null ? 'text-xl text-zinc-500 sm:text-2xl dark:text-zinc-400' : 'text-2xl text-zinc-900 sm:text-4xl dark:text-white',
              )}
            >
              {value ?? t(`stats.${key}.target`)}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-right text-sm">
        <Link to="/status" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300">
          {t('stats.more')} →
        </Link>
      </p>
    </section>
  )
}
