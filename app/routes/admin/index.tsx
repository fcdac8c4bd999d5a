/**
 * The console's overview (`/admin`): calls, points, active users and keys, error rate and the
 * relay's added latency over 24 hours, 7 or 30 days (links, so the switch works without
 * JavaScript), over time (per hour or day) and by model and by provider; open tickets by status; the providers and their circuits.
 * The figures come from hourly aggregates (docs/decisions/120-figures-from-hourly-aggregates.md), never from the call log.
 */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/index'
import { endpoints, isId, openTicketStatuses, overviewPeriods, type AdminOverview } from '#relay/contract/index.ts'
import { oneOf } from '#app/components/admin/list-controls.tsx'
import { CircuitBadge, EnabledBadge, ErrorRate, FiguresTable, Latency, SuccessRate } from '#app/components/admin/ops-figures.tsx'
import { OverTime } from '#app/components/admin/over-time.tsx'
import { BreakdownChart } from '#app/components/charts/breakdown-chart.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { TicketStatusBadge } from '#app/components/tickets/ticket-labels.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Stat } from '#app/components/ui/stat.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const period = oneOf(url, 'period', overviewPeriods) ?? '24h'
  // The chart's choice, as the filter form sends it; the relay refuses what is not a model or provider id.
  const providerId = url.searchParams.get('provider_id') ?? ''
  const filter = { model: url.searchParams.get('model')?.trim() || undefined, provider_id: isId(providerId) ? providerId : undefined }
  const relay = getRelay(context)
  const [overview, series] = await Promise.all([
    relay.call(endpoints.adminOps.overview, { query: { period } }),
    relay.call(endpoints.adminOps.overviewSeries, { query: { period, ...filter } }),
  ])
  return { title: getI18n(context).t('admin:ops.overview.title'), overview, series, filter }
}

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('admin')
  const { overview } = loaderData
  const { totals } = overview
  const numbers = numberFormat(i18n.language)
  const models = overview.by_model.map((row) => ({ ...row, name: row.model }))
  const providers = overview.by_provider.map((row) => ({ ...row, name: row.provider ?? t('ops.overview.noProvider') }))
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={
          overview.updated_timestamp > 0 ? (
            <>
              {t('ops.overview.subtitle')} {t('ops.overview.updated')} <LocalTime ms={overview.updated_timestamp} />
            </>
          ) : (
            t('ops.overview.subtitle')
          )
        }
        actions={<PeriodSwitch current={overview.period} filter={loaderData.filter} />}
      />
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="overview-totals">
        <Stat
          label={t('ops.overview.calls')}
          value={numbers.format(totals.calls)}
          detail={t('ops.overview.callsDetail', { answered: numbers.format(totals.answered), cut: numbers.format(totals.cut), refused: numbers.format(totals.refused) })}
          testId="stat-calls"
        />
        <Stat label={t('ops.overview.pointsConsumed')} value={numbers.format(totals.points)} testId="stat-points" />
        <Stat label={t('ops.overview.activeUsers')} value={numbers.format(totals.active_users)} detail={t('ops.overview.activeKeys', { count: totals.active_keys })} testId="stat-active" />
        <Stat
          label={t('ops.overview.errorRate')}
          value={<ErrorRate figures={totals} />}
          detail={`${t('ops.overview.failures', { count: totals.failures })} · ${t('ops.overview.relayRefused', { count: totals.relay_refused })}`}
          testId="stat-errors"
        />
        <Stat label={t('ops.overview.latencyP50')} value={<Latency below={totals.relay_p50_below_ms} />} testId="stat-p50" />
        <Stat label={t('ops.overview.latencyP95')} value={<Latency below={totals.relay_p95_below_ms} />} testId="stat-p95" />
        <Stat label={t('ops.overview.tokens')} value={numbers.format(totals.input_tokens + totals.output_tokens)} detail={t('ops.overview.tokensDetail', { input: numbers.format(totals.input_tokens), output: numbers.format(totals.output_tokens) })} />
        <Stat label={t('ops.overview.firstByte')} value={<Latency below={totals.first_byte_p50_below_ms} />} />
      </dl>
      <OverTime series={loaderData.series} filter={loaderData.filter} models={overview.by_model.map((row) => row.model)} providers={overview.providers} />
      <div className="grid gap-6 xl:grid-cols-2">
        <Breakdown title={t('ops.overview.byModel')} nameLabel={t('ops.overview.model')} rows={models} testId="by-model" />
        <Breakdown title={t('ops.overview.byProvider')} nameLabel={t('ops.overview.provider')} rows={providers} testId="by-provider" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <TicketCounts tickets={overview.tickets} />
        <ProviderStates providers={overview.providers} />
      </div>
    </div>
  )
}

function PeriodSwitch({ current, filter }: { current: AdminOverview['period']; filter: { model?: string; provider_id?: string } }) {
  const { t } = useTranslation('admin')
  // The chart's model or provider stays chosen across periods.
  const chosen = Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined)
  return (
    <nav aria-label={t('ops.overview.period')} className="inline-flex rounded-xl border border-zinc-200 bg-white p-1 dark:border-zinc-800 dark:bg-zinc-900" data-testid="period-switch">
      {overviewPeriods.map((period) => (
        <Link
          key={period}
          to={`?${new URLSearchParams([['period', period], ...chosen])}`}
          aria-current={period === current ? 'page' : undefined}
          className={cn(
            'rounded-lg px-3 py-1.5 text-sm font-medium',
            period === current ? 'bg-indigo-600 text-white dark:bg-indigo-500' : 'text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
          )}
        >
          {t(`ops.overview.periods.${period}`)}
        </Link>
      ))}
    </nav>
  )
}

function Breakdown({ title, nameLabel, rows, testId }: { title: string; nameLabel: string; rows: Parameters<typeof FiguresTable>[0]['rows']; testId: string }) {
  const { t } = useTranslation('admin')
  return (
    <Card className="min-w-0 space-y-4" data-testid={testId}>
      <CardTitle>{title}</CardTitle>
      {rows.length > 0 ? <BreakdownChart items={rows.map((row) => ({ name: row.name, value: row.calls }))} label={`${title} · ${t('ops.overview.calls')}`} /> : null}
      <FiguresTable rows={rows} nameLabel={nameLabel} caption={title} />
    </Card>
  )
}

function TicketCounts({ tickets }: { tickets: AdminOverview['tickets'] }) {
  const { t, i18n } = useTranslation('admin')
  const numbers = numberFormat(i18n.language)
  const open = tickets.filter((row) => (openTicketStatuses as readonly string[]).includes(row.status))
  return (
    <Card data-testid="overview-tickets">
      <CardTitle>{t('ops.overview.openTickets')}</CardTitle>
      <ul className="mt-4 divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
        {open.map((row) => (
          <li key={row.status} className="flex items-center justify-between gap-3 py-2">
            <Link to={`/admin/tickets?status=${row.status}`} className="hover:opacity-80">
              <TicketStatusBadge status={row.status} />
            </Link>
            <span className="font-semibold tabular-nums" data-testid={`tickets-${row.status}`}>
              {numbers.format(row.count)}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  )
}

function ProviderStates({ providers }: { providers: AdminOverview['providers'] }) {
  const { t } = useTranslation('admin')
  return (
    <Card className="min-w-0 lg:col-span-2" data-testid="overview-providers">
      <div className="flex items-center justify-between gap-3">
        <CardTitle>{t('ops.overview.providers')}</CardTitle>
        <Link to="/admin/providers" className="text-sm font-medium text-indigo-600 dark:text-indigo-400">
          {t('ops.overview.manage')} →
        </Link>
      </div>
      {providers.length === 0 ? (
        <p className="py-6 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('ops.providers.empty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
          {providers.map((provider) => (
            <li key={provider.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5">
              <span className="min-w-0 font-medium [overflow-wrap:anywhere]" data-testid="provider-label">
                {provider.label}
              </span>
              <span className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
                <EnabledBadge enabled={provider.enabled} />
                <CircuitBadge provider={provider} />
                <span>
                  {t('ops.providers.success')} <SuccessRate figures={provider.recent} />
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
