/** Mainland China and overseas: what each audience gets. */
import { useTranslation } from 'react-i18next'
import { Check, Globe, type LucideIcon, MapPin } from 'lucide-react'
import { container, SectionHeader } from './section.tsx'

/** `saving`: the computed best saving on list prices (percent), or null to state the target. */
export function Audiences({ saving }: { saving: number | null }) {
  const { t } = useTranslation('marketing')
  const chinaPoints = [
    t('audiences.china.points.speed'),
    saving === null ? t('audiences.china.points.priceTarget') : t('audiences.china.points.priceMeasured', { percent: saving }),
    t('audiences.china.points.payment'),
    t('audiences.china.points.support'),
  ]
  const overseasPoints = [
    t('audiences.overseas.points.compatible'),
    t('audiences.overseas.points.latency'),
    saving === null ? t('audiences.overseas.points.savingsTarget') : t('audiences.overseas.points.savingsMeasured', { percent: saving }),
    t('audiences.overseas.points.languages'),
  ]
  return (
    <section aria-labelledby="audiences-title" className={`${container} py-20 sm:py-28`}>
      <SectionHeader
        id="audiences-title"
        eyebrow={t('audiences.eyebrow')}
        title={t('audiences.title')}
        subtitle={t('audiences.subtitle')}
      />
      <div className="mt-12 grid gap-6 lg:grid-cols-2">
        <AudienceCard
          icon={MapPin}
          title={t('audiences.china.title')}
          intro={t('audiences.china.intro')}
          points={chinaPoints}
        />
        <AudienceCard
          icon={Globe}
          title={t('audiences.overseas.title')}
          intro={t('audiences.overseas.intro')}
          points={overseasPoints}
        />
      </div>
    </section>
  )
}

function AudienceCard({ icon: Icon, title, intro, points }: { icon: LucideIcon; title: string; intro: string; points: string[] }) {
  return (
    <article className="relative overflow-hidden rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
      <div
        aria-hidden="true"
        className="absolute inset-x-0 top-0 h-px bg-linear-to-r from-transparent via-indigo-500/60 to-transparent dark:via-indigo-400/60"
      />
      <div className="flex items-center gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100 dark:bg-indigo-500/10 dark:text-indigo-400 dark:ring-indigo-500/20">
          <Icon className="size-5" />
        </span>
        <div>
          <h3 className="text-lg font-semibold text-zinc-900 dark:text-white">{title}</h3>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{intro}</p>
        </div>
      </div>
      <ul className="mt-6 space-y-3.5">
        {points.map((point) => (
          <li key={point} className="flex gap-3 text-sm leading-relaxed text-zinc-700 sm:text-base dark:text-zinc-300">
            <Check className="mt-1 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
            <span>{point}</span>
          </li>
        ))}
      </ul>
    </article>
  )
}
