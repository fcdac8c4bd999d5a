/**
 * The dashboard (docs/product.md "Dashboard"): who the user is, their points and package, the 10-day
 * usage chart, open tickets, the invite link with the referral rule, the Claude Code tutorial
 * with common commands, and quick links.
 */
import { BookOpen, ChartColumn, Receipt, Settings } from 'lucide-react'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { apiKeyPrefix, endpoints, type ReferralRule, type UserInfo } from '#relay/contract/index.ts'
import { BarChart } from '#app/components/charts/bar-chart.tsx'
import { dayLabel } from '#app/components/charts/bars.ts'
import { CopyField } from '#app/components/copy-button.tsx'
import { OtherClientsGuide } from '#app/components/cli-guides/other-clients.tsx'
import { CliTutorial } from '#app/components/dashboard/cli-tutorial.tsx'
import { CommonCommands } from '#app/components/dashboard/common-commands.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { RewardRule } from '#app/components/referral/reward-rule.tsx'
import { StatusBadge, statusKind } from '#app/components/subscription/status-badge.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Stat } from '#app/components/ui/stat.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { apiBaseUrl, publicUrl } from '#server/env.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const relay = getRelay(context)
  const [info, usage, openTickets, referral] = await Promise.all([
    relay.call(endpoints.accounts.info),
    relay.call(endpoints.points.weeklyUsage),
    // Both belong to other areas: without them the dashboard still stands (docs/product.md).
    optionalRead(relay.call(endpoints.tickets.list, { query: { status: 'open', page: 1, pageSize: 1 } })),
    optionalRead(relay.call(endpoints.referral.stats)),
  ])
  const base = publicUrl(request)
  return {
    title: getI18n(context).t('dashboard:title'),
    user: info.user,
    points: info.points,
    usage: usage.days.map((day) => ({ date: day.date, points: day.consumed_points })),
    openTickets: openTickets?.total ?? null,
    rule: referral?.rule ?? null,
    relayUrl: apiBaseUrl(request),
    keyPlaceholder: `${apiKeyPrefix}…`,
    inviteUrl: `${base}/auth/register?invite=${encodeURIComponent(info.user.invite_code)}`,
  }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation(['dashboard', 'common'])
  const { user, relayUrl } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader
        title={t('greeting', { name: user.name || user.username })}
        subtitle={t('subtitle')}
        actions={
          <p className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
            {t('userType')}
            <Badge tone="indigo" data-testid="user-type">
              {t(`common:userType.${user.user_type}`)}
            </Badge>
          </p>
        }
      />
      <Overview points={loaderData.points} openTickets={loaderData.openTickets} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-5">
        <Usage days={loaderData.usage} className="xl:col-span-3" />
        <Invite inviteCode={user.invite_code} inviteUrl={loaderData.inviteUrl} rule={loaderData.rule} className="xl:col-span-2" />
      </div>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-5">
        <Card className="xl:col-span-3">
          <CardTitle>{t('tutorial.title')}</CardTitle>
          <p className="mt-1 mb-5 text-sm text-zinc-600 dark:text-zinc-400">{t('tutorial.subtitle')}</p>
          <CliTutorial relayUrl={relayUrl} keyPlaceholder={loaderData.keyPlaceholder} />
        </Card>
        <Card className="xl:col-span-2">
          <CardTitle>{t('commands.title')}</CardTitle>
          <p className="mt-1 mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t('commands.subtitle')}</p>
          <CommonCommands relayUrl={relayUrl} />
        </Card>
      </div>
      <Card>
        <CardTitle>{t('clients.title')}</CardTitle>
        <p className="mt-1 mb-5 text-sm text-zinc-600 dark:text-zinc-400">{t('clients.subtitle')}</p>
        <OtherClientsGuide baseUrl={relayUrl} apiKey={loaderData.keyPlaceholder} />
      </Card>
      <QuickLinks />
    </div>
  )
}

function Overview({ points, openTickets }: { points: UserInfo['points']; openTickets: number | null }) {
  const { t } = useTranslation('dashboard')
  const format = useNumberFormat()
  const hasPackage = statusKind(points.status) !== 'none'
  const full = points.remaining_points >= points.points_limit
  return (
    <dl aria-label={t('stats.label')} className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-5">
      <Stat
        testId="stat-balance"
        label={t('stats.balance')}
        value={format(points.remaining_points)}
        detail={
          hasPackage ? (
            <>
              {t('stats.balanceOf', { limit: format(points.points_limit) })}
              <Pace forecast={points.forecast} />
            </>
          ) : undefined
        }
      />
      <Stat
        testId="stat-used"
        label={t('stats.used')}
        value={format(points.used_points)}
        detail={t('stats.usedDetail', { total: format(points.total_used_points) })}
      />
      <Stat
        testId="stat-refill"
        label={t('stats.refill')}
        value={hasPackage ? t('stats.refillValue', { points: format(points.hour_points) }) : '—'}
        detail={
          !hasPackage ? (
            t('stats.refillNone')
          ) : points.next_refill_timestamp && !full ? (
            <Trans
              t={t}
              i18nKey="stats.nextRefill"
              values={{ points: format(points.forecast.next_refill_points) }}
              components={{ time: <LocalTime ms={points.next_refill_timestamp} /> }}
            />
          ) : full ? (
            t('stats.refillFull')
          ) : undefined
        }
      />
      <Stat
        testId="stat-status"
        label={t('stats.status')}
        value={<StatusBadge status={points.status} className="px-2.5 py-1 text-sm" />}
        detail={
          hasPackage ? (
            <>
              {points.package_name} · {t('stats.daysLeft', { count: points.remaining_days })}
            </>
          ) : (
            <Link to="/subscription" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
              {t('stats.noPackage')}
            </Link>
          )
        }
      />
      <Stat
        testId="stat-tickets"
        className="col-span-2 sm:col-span-1"
        label={t('stats.tickets')}
        value={openTickets === null ? <span className="text-base font-medium text-zinc-500">{t('stats.ticketsUnavailable')}</span> : format(openTickets)}
        detail={
          <Link to="/tickets" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
            {t('stats.ticketsView')}
          </Link>
        }
      />
    </dl>
  )
}

/** When the balance runs out at the last hour's pace (the relay's forecast), as a line under the balance. */
function Pace({ forecast }: { forecast: UserInfo['points']['forecast'] }) {
  const { t } = useTranslation('dashboard')
  const format = useNumberFormat()
  if (forecast.hourly_use === 0) return null
  const pace = format(forecast.hourly_use)
  return (
    <span className="block" data-testid="stat-pace">
      {forecast.runs_out_timestamp === null ? (
        t('stats.paceLasts', { pace })
      ) : (
        <Trans t={t} i18nKey="stats.paceRunsOut" values={{ pace }} components={{ time: <LocalTime ms={forecast.runs_out_timestamp} /> }} />
      )}
    </span>
  )
}

function Usage({ days, className }: { days: Array<{ date: string; points: number }>; className?: string }) {
  const { t, i18n } = useTranslation('dashboard')
  const format = useNumberFormat()
  const total = days.reduce((sum, day) => sum + day.points, 0)
  return (
    <Card className={className} aria-labelledby="usage-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <CardTitle id="usage-title">{t('usage.title')}</CardTitle>
        <p className="text-sm text-zinc-500 tabular-nums dark:text-zinc-400">{t('usage.total', { total: format(total) })}</p>
      </div>
      <div className="mt-4">
        <BarChart bars={days.map((day) => ({ key: day.date, label: dayLabel(day.date, i18n.language), value: day.points }))} label={t('usage.chartLabel')} />
      </div>
      {total === 0 ? <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('usage.empty')}</p> : null}
      <Link to="/points#history" className="mt-3 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
        {t('usage.details')}
      </Link>
    </Card>
  )
}

function Invite({
  inviteCode,
  inviteUrl,
  rule,
  className,
}: {
  inviteCode: string
  inviteUrl: string
  rule: ReferralRule | null
  className?: string
}) {
  const { t } = useTranslation('dashboard')
  return (
    <Card aria-labelledby="invite-title" className={cn('flex flex-col', className)} data-testid="invite-card">
      <CardTitle id="invite-title">{t('invite.title')}</CardTitle>
      <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">
        {t('invite.code')}{' '}
        <span className="ml-1 rounded-md bg-zinc-100 px-2 py-0.5 font-mono text-sm font-semibold text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100" data-testid="invite-code">
          {inviteCode}
        </span>
      </p>
      <div className="mt-4">
        <CopyField id="invite-link" label={t('invite.link')} value={inviteUrl} copyText={t('copy')} copiedKey="dashboard:invite.copied" />
      </div>
      {rule ? (
        // The referral screen's table of the configured rule (docs/architecture.md §6: never fixed copy).
        <div className="mt-5">
          <h3 className="mb-1 text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t('invite.rewards')}</h3>
          <RewardRule rule={rule} />
        </div>
      ) : null}
      <Link to="/referral" className="mt-4 text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
        {t('invite.more')}
      </Link>
    </Card>
  )
}

const quickLinks = [
  { id: 'apiDocs', to: '/api/docs', icon: BookOpen },
  { id: 'billing', to: '/points#history', icon: Receipt },
  { id: 'usage', to: '/usage', icon: ChartColumn },
  { id: 'settings', to: '/profile', icon: Settings },
] as const

function QuickLinks() {
  const { t } = useTranslation('dashboard')
  return (
    <nav aria-labelledby="links-title">
      <h2 id="links-title" className="mb-3 text-base font-semibold">
        {t('links.title')}
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {quickLinks.map((link) => (
          <li key={link.id}>
            <Link
              to={link.to}
              className="group flex h-full items-start gap-3 rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm transition-colors hover:border-indigo-300 hover:bg-indigo-50/40 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-indigo-700 dark:hover:bg-indigo-950/30"
            >
              <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
                <link.icon className="size-5" />
              </span>
              <span className="min-w-0">
                <span className="block text-sm font-semibold text-zinc-900 group-hover:text-indigo-700 dark:text-zinc-100 dark:group-hover:text-indigo-300">
                  {t(`links.${link.id}`)}
                </span>
                <span className="mt-0.5 block text-xs text-zinc-500 dark:text-zinc-400">{t(`links.${link.id}Hint`)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
