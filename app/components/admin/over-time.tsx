/**
 * The console's figures over time (docs/console.md, Overview): calls, points, tokens and the
 * error rate per hour or UTC+8 day, of all traffic or one model or provider (a GET form, so the
 * choice works without JavaScript and can be bookmarked), drawn as bar charts and listed in a
 * table with the same numbers.
 */
import { useTranslation } from 'react-i18next'
import type { AdminOverview, AdminOverviewSeries } from '#relay/contract/index.ts'
import { BarChart } from '#app/components/charts/bar-chart.tsx'
import { dayLabel, hourLabel, type ChartBar, type ChartUnit } from '#app/components/charts/bars.ts'
import { ErrorRate } from '#app/components/admin/ops-figures.tsx'
import { FilterForm, FilterSelect } from '#app/components/admin/list-controls.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { dateOf } from '#app/utils/utc8-days.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

type Bucket = AdminOverviewSeries['buckets'][number]

export function OverTime({
  series,
  filter,
  models,
  providers,
}: {
  series: AdminOverviewSeries
  filter: { model?: string; provider_id?: string }
  models: string[]
  providers: AdminOverview['providers']
}) {
  const { t, i18n } = useTranslation('admin')
  const numbers = numberFormat(i18n.language)
  const labelOf = (start: number) => (series.bucket === 'hour' ? hourLabel(start, i18n.language) : dayLabel(dateOf(start), i18n.language))
  const barsOf = (value: (bucket: Bucket) => number): ChartBar[] => series.buckets.map((bucket) => ({ key: String(bucket.start), label: labelOf(bucket.start), value: value(bucket) }))
  const charts: Array<{ id: string; title: string; bars: ChartBar[]; unit?: ChartUnit }> = [
    { id: 'calls', title: t('ops.overview.overTime.calls'), bars: barsOf((b) => b.calls) },
    { id: 'points', title: t('ops.overview.overTime.points'), bars: barsOf((b) => b.points) },
    { id: 'tokens', title: t('ops.overview.overTime.tokens'), bars: barsOf((b) => b.input_tokens + b.output_tokens) },
    { id: 'errors', title: t('ops.overview.overTime.errorRate'), bars: barsOf((b) => (b.calls === 0 ? 0 : b.failures / b.calls)), unit: 'share' },
  ]
  return (
    <Card id="over-time" className="min-w-0 space-y-5" data-testid="over-time">
      <div className="space-y-1">
        <CardTitle>{t('ops.overview.overTime.title')}</CardTitle>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{series.bucket === 'hour' ? t('ops.overview.overTime.hours') : t('ops.overview.overTime.days')}</p>
      </div>
      <FilterForm testId="over-time-filter" submitLabel={t('ops.overview.overTime.show')}>
        <input type="hidden" name="period" value={series.period} />
        <FilterSelect name="model" label={t('ops.overview.overTime.model')} value={filter.model} anyLabel={t('ops.overview.overTime.allModels')} options={models.map((model) => ({ value: model, label: model }))} />
        <FilterSelect
          name="provider_id"
          label={t('ops.overview.overTime.provider')}
          value={filter.provider_id}
          anyLabel={t('ops.overview.overTime.allProviders')}
          options={providers.map((provider) => ({ value: provider.id, label: provider.label }))}
        />
      </FilterForm>
      <div className="grid gap-6 md:grid-cols-2">
        {charts.map((chart) => (
          <section key={chart.id} className="min-w-0 space-y-2" data-testid={`over-time-${chart.id}`}>
            <h3 className="text-sm font-medium text-zinc-700 dark:text-zinc-300">{chart.title}</h3>
            <BarChart bars={chart.bars} label={chart.title} unit={chart.unit} />
          </section>
        ))}
      </div>
      <details className="group" data-testid="over-time-table">
        <summary className="cursor-pointer text-sm font-medium text-indigo-600 dark:text-indigo-400">{t('ops.overview.overTime.asTable')}</summary>
        <div className="mt-3">
          <Table
            caption={t('ops.overview.overTime.title')}
            columns={[
              { id: 'time', label: t('ops.overview.overTime.time'), className: 'whitespace-nowrap' },
              { id: 'calls', label: t('ops.overview.overTime.calls'), align: 'end', className: 'whitespace-nowrap' },
              { id: 'failures', label: t('ops.overview.overTime.failures'), align: 'end', className: 'whitespace-nowrap' },
              { id: 'errors', label: t('ops.overview.overTime.errorRate'), align: 'end', className: 'whitespace-nowrap' },
              { id: 'refused', label: t('ops.overview.overTime.relayRefused'), align: 'end', className: 'whitespace-nowrap' },
              { id: 'points', label: t('ops.overview.overTime.points'), align: 'end', className: 'whitespace-nowrap' },
              { id: 'input', label: t('ops.overview.overTime.inputTokens'), align: 'end', className: 'whitespace-nowrap' },
              { id: 'output', label: t('ops.overview.overTime.outputTokens'), align: 'end', className: 'whitespace-nowrap' },
            ]}
          >
            {series.buckets.map((bucket) => (
              <tr key={bucket.start} className="border-b border-zinc-100 tabular-nums last:border-0 dark:border-zinc-800">
                <th scope="row" className="py-1.5 pr-3 font-normal whitespace-nowrap">
                  {labelOf(bucket.start)}
                </th>
                <td className="py-1.5 pr-3 text-right">{numbers.format(bucket.calls)}</td>
                <td className="py-1.5 pr-3 text-right">{numbers.format(bucket.failures)}</td>
                <td className="py-1.5 pr-3 text-right">
                  <ErrorRate figures={bucket} />
                </td>
                <td className="py-1.5 pr-3 text-right">{numbers.format(bucket.relay_refused)}</td>
                <td className="py-1.5 pr-3 text-right">{numbers.format(bucket.points)}</td>
                <td className="py-1.5 pr-3 text-right">{numbers.format(bucket.input_tokens)}</td>
                <td className="py-1.5 text-right">{numbers.format(bucket.output_tokens)}</td>
              </tr>
            ))}
          </Table>
        </div>
      </details>
    </Card>
  )
}
