/**
 * The public status page (docs/decisions/120-figures-from-hourly-aggregates.md): per model family, availability and the relay's
 * added latency over 24 hours and 7 days, from real traffic; the incidents the operator posted.
 */
import { useTranslation } from 'react-i18next'
import type { Route } from './+types/status'
import { endpoints, type CallFigure, type PublicStatus } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { availabilityPercent, formatPercent } from '#app/utils/public-figures.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }, { name: 'description', content: loaderData?.description }]

export async function loader({ context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  return {
    title: t('public:status.meta.title'),
    description: t('public:status.meta.description'),
    status: await getRelay(context).call(endpoints.public.status),
    public: routeNamespace(context, 'public'),
  }
}

export default function Status({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.public)
  const { t } = useTranslation('public')
  const { status } = loaderData
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
      <header>
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-900 dark:text-white">{t('status.title')}</h1>
        <p className="mt-2 max-w-3xl text-zinc-600 dark:text-zinc-400">{t('status.subtitle')}</p>
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400" data-testid="status-updated">
          {t('status.updated')}: {status.updated_timestamp === 0 ? t('status.never') : <LocalTime ms={status.updated_timestamp} />}
        </p>
      </header>
      <Incidents incidents={status.incidents} />
      <Families families={status.families} />
    </main>
  )
}

function Incidents({ incidents }: { incidents: PublicStatus['incidents'] }) {
  const { t } = useTranslation('public')
  return (
    <Card aria-labelledby="incidents-title" data-testid="incidents">
      <CardTitle id="incidents-title">{t('status.incidents.title')}</CardTitle>
      {incidents.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('status.incidents.none')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">
          {incidents.map((incident) => (
            <li key={incident.id} className="py-3" data-testid={`incident-${incident.id}`}>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={incident.resolved_timestamp === null ? 'amber' : 'green'}>
                  {incident.resolved_timestamp === null ? t('status.incidents.open') : t('status.incidents.resolved')}
                </Badge>
                <span className="font-medium text-zinc-900 dark:text-zinc-100">{incident.title}</span>
              </div>
              {incident.body ? <p className="mt-1 text-sm whitespace-pre-line text-zinc-600 dark:text-zinc-400">{incident.body}</p> : null}
              <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
                {t('status.incidents.since')} <LocalTime ms={incident.start_timestamp} />
                {incident.resolved_timestamp !== null ? (
                  <>
                    {' · '}
                    {t('status.incidents.resolvedAt')} <LocalTime ms={incident.resolved_timestamp} />
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

function Families({ families }: { families: PublicStatus['families'] }) {
  const { t } = useTranslation('public')
  return (
    <Card aria-labelledby="families-title">
      <CardTitle id="families-title">{t('status.families.title')}</CardTitle>
      {families.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="status-empty">
          {t('status.families.empty')}
        </p>
      ) : (
        <div className="mt-3">
          <Table
            testId="status-families"
            phone="stack"
            caption={t('status.families.caption')}
            columns={[
              { id: 'family', label: t('status.families.family') },
              { id: 'day', label: t('status.families.day') },
              { id: 'week', label: t('status.families.week') },
            ]}
          >
            {families.map((family) => (
              // Phones: the family above its two periods, side by side, each naming its period.
              <tr key={family.family} data-testid={`status-${family.family}`} className="grid grid-cols-2 gap-x-4 gap-y-2 py-3 md:table-row">
                <th scope="row" className="col-span-2 text-left align-top font-mono text-xs font-medium md:py-3 md:pr-3">
                  {family.family}
                </th>
                {(['day', 'week'] as const).map((period) => (
                  <td key={period} className="align-top md:py-3 md:pr-3" data-testid={`status-${family.family}-${period}`}>
                    <span className="mb-1 block text-xs text-zinc-500 md:hidden dark:text-zinc-400">{t(`status.families.${period}`)}</span>
                    <Period figure={family[period]} />
                  </td>
                ))}
              </tr>
            ))}
          </Table>
        </div>
      )}
    </Card>
  )
}

/** Availability, median added latency and the number of calls behind them. */
function Period({ figure }: { figure: CallFigure }) {
  const { t, i18n } = useTranslation('public')
  const format = useNumberFormat()
  const availability = availabilityPercent(figure.calls, figure.failures)
  if (availability === null) return <span className="text-sm text-zinc-500 dark:text-zinc-400">{t('status.families.noTraffic')}</span>
  const tone = availability >= 99.9 ? 'green' : availability >= 99 ? 'amber' : 'red'
  return (
    <div className="text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 whitespace-nowrap">
        <dt className="text-zinc-500 dark:text-zinc-400">{t('status.families.availability')}</dt>
        <dd>
          <Badge tone={tone}>{formatPercent(availability, i18n.language)}</Badge>
        </dd>
        <dt className="text-zinc-500 dark:text-zinc-400">{t('status.families.latency')}</dt>
        <dd className="tabular-nums">
          {figure.median_latency_below_ms === null
            ? '—'
            : t('status.families.latencyValue', {
                ms: figure.median_latency_below_ms,
              })}
        </dd>
      </dl>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
        {t('status.families.calls', {
          count: figure.calls,
          formatted: format(figure.calls),
        })}
      </p>
    </div>
  )
}
