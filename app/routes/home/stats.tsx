import { useTranslation } from 'react-i18next'
import { container } from './section.tsx'

const statKeys = ['uptime', 'latency', 'savings', 'support'] as const

export function Stats() {
  const { t } = useTranslation('marketing')
  return (
    <section aria-labelledby="stats-title" className={container}>
      <h2 id="stats-title" className="sr-only">
        {t('stats.heading')}
      </h2>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-2xl bg-zinc-200 ring-1 ring-zinc-200 lg:grid-cols-4 dark:bg-zinc-800 dark:ring-zinc-800">
        {statKeys.map((key) => (
          <div key={key} className="flex flex-col-reverse justify-end gap-1 bg-white px-5 py-6 sm:px-8 sm:py-8 dark:bg-zinc-900">
            <dt className="text-sm text-zinc-600 dark:text-zinc-400">{t(`stats.${key}.label`)}</dt>
            <dd className="text-2xl font-semibold tracking-tight text-zinc-900 tabular-nums sm:text-4xl dark:text-white">
              {t(`stats.${key}.value`)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
