/** The package in force, or an empty state. */
import { CreditCard } from 'lucide-react'
import { Trans, useTranslation } from 'react-i18next'
import type { PointsBlock } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { StatusBadge } from '#app/components/subscription/status-badge.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { packageKindTone } from '#app/components/subscription/package-kind.ts'

export function CurrentSubscription({ points, teamName }: { points: PointsBlock; teamName: string | null }) {
  const { t } = useTranslation('subscription')
  const format = useNumberFormat()
  if (!points.package_name) {
    return (
      <Card aria-labelledby="current-title" data-testid="current-subscription">
        <CardTitle id="current-title">{t('current.title')}</CardTitle>
        <EmptyState icon={CreditCard} title={t('current.empty')} body={t('current.emptyHint')} className="mt-4" />
      </Card>
    )
  }
  const figures: Fact[] = [
    { label: t('current.remaining'), value: format(points.remaining_points) },
    { label: t('current.used'), value: format(points.used_points) },
    { label: t('current.total'), value: format(points.total_points) },
    { label: t('current.hourPoints'), value: t('package.hourPointsValue', { points: format(points.hour_points) }) },
  ]
  return (
    <Card aria-labelledby="current-title" data-testid="current-subscription">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <CardTitle id="current-title" className="text-sm font-medium text-zinc-500 dark:text-zinc-400">
            {t('current.title')}
          </CardTitle>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xl font-semibold tracking-tight">
            <span data-testid="current-package">{points.package_name}</span>
            <StatusBadge status={points.status} />
            {points.package_kind ? <Badge tone={packageKindTone[points.package_kind]}>{t(`kind.${points.package_kind}`)}</Badge> : null}
          </p>
          {teamName ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('current.team', { name: teamName })}</p> : null}
          {points.description ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{points.description}</p> : null}
        </div>
        {points.start_timestamp && points.end_timestamp ? (
          <div className="text-sm text-zinc-600 sm:text-right dark:text-zinc-400">
            <p>
              <Trans
                t={t}
                i18nKey="current.periodValue"
                components={{ start: <LocalTime ms={points.start_timestamp} dateOnly />, end: <LocalTime ms={points.end_timestamp} dateOnly /> }}
              />
            </p>
            <p className="mt-0.5 font-medium text-zinc-900 dark:text-zinc-100">{t('current.daysLeft', { count: points.remaining_days })}</p>
          </div>
        ) : null}
      </div>
      <Facts facts={figures} className="mt-5 grid-cols-2 border-t border-zinc-100 pt-5 sm:grid-cols-4 dark:border-zinc-800" />
    </Card>
  )
}
