/** How it works: redeem, create a key, connect. */
import { useTranslation } from 'react-i18next'
import { container, SectionHeader } from './section.tsx'

const steps = ['redeem', 'key', 'connect'] as const

export function Steps() {
  const { t } = useTranslation('marketing')
  return (
    <section
      aria-labelledby="steps-title"
      className="border-t border-zinc-200 py-20 sm:py-28 dark:border-zinc-800"
    >
      <div className={container}>
        <SectionHeader id="steps-title" eyebrow={t('steps.eyebrow')} title={t('steps.title')} subtitle={t('steps.subtitle')} />
        <div className="relative mt-12">
          <div
            aria-hidden="true"
            className="absolute top-5 right-[16%] left-[16%] hidden h-px bg-linear-to-r from-indigo-500/0 via-indigo-500/40 to-indigo-500/0 md:block dark:via-indigo-400/40"
          />
          <ol className="relative grid gap-10 md:grid-cols-3 md:gap-6">
          {steps.map((key, index) => (
            <li key={key} className="relative flex flex-col items-center text-center">
              <span className="relative flex size-10 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white ring-8 ring-zinc-50 dark:bg-indigo-500 dark:ring-zinc-950">
                {index + 1}
              </span>
              <h3 className="mt-5 text-base font-semibold text-balance text-zinc-900 dark:text-white">{t(`steps.${key}.title`)}</h3>
              <p className="mt-2 max-w-xs text-sm leading-relaxed text-zinc-600 dark:text-zinc-400">{t(`steps.${key}.body`)}</p>
            </li>
          ))}
          </ol>
        </div>
      </div>
    </section>
  )
}
