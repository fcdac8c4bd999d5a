import { useTranslation } from 'react-i18next'
import { ChartLine, KeyRound, MessageCircle, RefreshCw, SquareTerminal, Users } from 'lucide-react'
import { container, SectionHeader } from './section.tsx'

const features = [
  { key: 'refill', icon: RefreshCw },
  { key: 'keys', icon: KeyRound },
  { key: 'team', icon: Users },
  { key: 'device', icon: SquareTerminal },
  { key: 'tickets', icon: MessageCircle },
  { key: 'usage', icon: ChartLine },
] as const

export function Features() {
  const { t } = useTranslation('marketing')
  return (
    <section aria-labelledby="features-title" className={`${container} py-20 sm:py-28`}>
      <SectionHeader id="features-title" eyebrow={t('features.eyebrow')} title={t('features.title')} />
      <ul className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
        {features.map(({ key, icon: Icon }) => (
          <li key={key} className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white text-indigo-600 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-indigo-400 dark:ring-zinc-800">
              <Icon className="size-5" />
            </span>
            <div>
              <h3 className="font-semibold text-zinc-900 dark:text-white">{t(`features.items.${key}.title`)}</h3>
              <p className="mt-1 text-sm leading-relaxed text-zinc-600 dark:text-zinc-400">{t(`features.items.${key}.body`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
