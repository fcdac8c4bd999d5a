/** The three privacy promises. */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ArrowRight, EyeOff, MessageSquareOff, ShieldCheck } from 'lucide-react'
import { container, SectionHeader } from './section.tsx'

const promises = [
  { key: 'noStorage', icon: ShieldCheck },
  { key: 'noPrompts', icon: MessageSquareOff },
  { key: 'noMonitoring', icon: EyeOff },
] as const

export function Trust() {
  const { t } = useTranslation('marketing')
  return (
    <section
      aria-labelledby="trust-title"
      className="border-y border-zinc-200 bg-white py-20 sm:py-28 dark:border-zinc-800 dark:bg-zinc-900/40"
    >
      <div className={container}>
        <SectionHeader id="trust-title" eyebrow={t('trust.eyebrow')} title={t('trust.title')} subtitle={t('trust.subtitle')} />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {promises.map(({ key, icon: Icon }) => (
            <li
              key={key}
              className="rounded-2xl border border-zinc-200 bg-zinc-50/60 p-6 dark:border-zinc-800 dark:bg-zinc-950/60"
            >
              <span className="flex size-10 items-center justify-center rounded-lg bg-zinc-900 text-white dark:bg-white dark:text-zinc-900">
                <Icon className="size-5" />
              </span>
              <h3 className="mt-5 text-base font-semibold text-zinc-900 dark:text-white">{t(`trust.${key}.title`)}</h3>
              <p className="mt-2 text-sm leading-relaxed text-zinc-600 dark:text-zinc-400">{t(`trust.${key}.body`)}</p>
            </li>
          ))}
        </ul>
        <p className="mt-10 text-center">
          <Link
            to="/privacy"
            className="group inline-flex items-center gap-1 text-sm font-semibold text-indigo-600 hover:text-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300"
          >
            {t('trust.link')}
            <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
          </Link>
        </p>
      </div>
    </section>
  )
}
