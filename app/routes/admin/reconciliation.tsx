/**
 * The reconciliation report (relay/admin/reconciliation.ts): for a month (UTC, as providers
 * invoice), per model and provider, the points charged beside what the same usage costs at the
 * providers' list prices, so a wrong price shows before the invoice does. A plain GET form picks
 * the month; the CSV link downloads the same rows.
 */
import { Download } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { Route } from './+types/reconciliation'
import { endpoints, type Reconciliation } from '#relay/contract/index.ts'
import { FilterForm, FilterInput } from '#app/components/admin/list-controls.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { monthOf } from '#app/schemas/admin-ops.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const month = monthOf(request)
  const report = await getRelay(context).call(endpoints.adminOps.reconciliation, { query: { month } })
  return { title: getI18n(context).t('admin:reconciliation.title'), report }
}

export default function AdminReconciliation({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { report } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('reconciliation.subtitle', { date: report.list_prices_date })} />
      <Card className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <FilterForm testId="reconciliation-month" submitLabel={t('reconciliation.show')}>
            <FilterInput name="month" label={t('reconciliation.month')} value={report.month} type="month" placeholder="YYYY-MM" />
          </FilterForm>
          <a
            href={`/admin/reconciliation/export?month=${report.month}`}
            download
            className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-indigo-600 ring-1 ring-zinc-200 hover:bg-zinc-50 dark:text-indigo-400 dark:ring-zinc-700 dark:hover:bg-zinc-800"
            data-testid="reconciliation-export"
          >
            <Download className="size-4" aria-hidden="true" />
            {t('reconciliation.csv')}
          </a>
        </div>
        {report.rows.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400" data-testid="reconciliation-empty">
            {t('reconciliation.empty')}
          </p>
        ) : (
          <ReportTable report={report} />
        )}
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('reconciliation.note')}</p>
      </Card>
    </div>
  )
}

function ReportTable({ report }: { report: Reconciliation }) {
  const { t, i18n } = useTranslation('admin')
  const number = numberFormat(i18n.language)
  const usd = numberFormat(i18n.language, { style: 'currency', currency: 'USD' })
  const cents = (value: number) => usd.format(value / 100)
  /** Points over list cents, in percent: 100 charges the list price. */
  const ratio = (points: number, list: number | null) => (list === null || list === 0 ? null : Math.round((points / list) * 100))
  const totalRatio = ratio(report.totals.listed_points, report.totals.list_cents)
  return (
    <Table
      phone="stack"
      caption={t('reconciliation.caption')}
      testId="reconciliation"
      columns={[
        { id: 'model', label: t('reconciliation.model') },
        { id: 'provider', label: t('reconciliation.provider') },
        { id: 'calls', label: t('reconciliation.calls'), align: 'end' },
        { id: 'tokens', label: t('reconciliation.tokens'), align: 'end' },
        { id: 'points', label: t('reconciliation.points'), align: 'end' },
        { id: 'list', label: t('reconciliation.list'), align: 'end' },
        { id: 'ratio', label: t('reconciliation.ratio'), align: 'end' },
      ]}
    >
      {report.rows.map((row) => {
        const percent = ratio(row.points, row.list_cents)
        return (
          <tr key={`${row.model} ${row.provider_id}`} className="grid grid-cols-2 gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="reconciliation-row" data-model={row.model}>
            <td className="font-mono text-xs break-all md:table-cell md:py-2.5 md:pr-3">{row.model}</td>
            <td className="text-right text-xs text-zinc-600 md:table-cell md:py-2.5 md:pr-3 md:text-left dark:text-zinc-400">{row.provider ?? t('reconciliation.noProvider')}</td>
            <td className="tabular-nums md:table-cell md:py-2.5 md:pr-3 md:text-right">{t('reconciliation.callsValue', { calls: number.format(row.calls) })}</td>
            <td className="text-right text-xs text-zinc-600 tabular-nums md:table-cell md:py-2.5 md:pr-3 dark:text-zinc-400">
              {t('reconciliation.tokensValue', {
                input: number.format(row.input_tokens + row.cache_read_tokens + row.cache_write_tokens + row.cache_write_1h_tokens),
                output: number.format(row.output_tokens),
              })}
              {row.web_search_requests > 0 ? ` · ${t('reconciliation.searches', { searches: number.format(row.web_search_requests) })}` : ''}
            </td>
            <td className="font-semibold tabular-nums md:table-cell md:py-2.5 md:pr-3 md:text-right">{number.format(row.points)}</td>
            <td className="text-right tabular-nums md:table-cell md:py-2.5 md:pr-3">{row.list_cents === null ? t('reconciliation.unlisted') : cents(row.list_cents)}</td>
            <td
              className={cn(
                'col-span-2 text-right tabular-nums md:table-cell md:py-2.5',
                percent !== null && (percent < 100 ? 'text-red-600 dark:text-red-400' : 'text-emerald-700 dark:text-emerald-400'),
              )}
            >
              {percent === null ? '—' : `${percent}%`}
            </td>
          </tr>
        )
      })}
      <tr className="grid grid-cols-2 gap-x-3 border-t border-zinc-200 py-3 font-semibold md:table-row md:py-0 dark:border-zinc-700" data-testid="reconciliation-total">
        <td className="md:table-cell md:py-2.5 md:pr-3" colSpan={2}>
          {t('reconciliation.total')}
        </td>
        <td className="text-right tabular-nums md:table-cell md:py-2.5 md:pr-3">{number.format(report.totals.calls)}</td>
        <td className="hidden md:table-cell" />
        <td className="tabular-nums md:table-cell md:py-2.5 md:pr-3 md:text-right">{number.format(report.totals.points)}</td>
        <td className="text-right tabular-nums md:table-cell md:py-2.5 md:pr-3">{cents(report.totals.list_cents)}</td>
        <td className="col-span-2 text-right tabular-nums md:table-cell md:py-2.5">{totalRatio === null ? '—' : `${totalRatio}%`}</td>
      </tr>
    </Table>
  )
}
