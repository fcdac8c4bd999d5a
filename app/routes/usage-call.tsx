/**
 * One call (docs/decisions/111-bounded-history-reads.md): what the usage log records of it, and the points rows it wrote —
 * the frozen, unfrozen and consumed rows the points history shows as one line linking here.
 */
import { ArrowLeft } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Link } from 'react-router'
import type { Route } from './+types/usage-call'
import { endpoints, isId } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { CallOutcome } from '#app/components/usage/call-outcome.tsx'
import { ChargeLines } from '#app/components/usage/charge-lines.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ params, context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  if (!isId(params.id)) throw data(t('usage:detail.notFound'), { status: 404 })
  try {
    const detail = await getRelay(context).call(endpoints.usage.call, { params: { id: params.id } })
    return { title: t('usage:detail.title'), detail }
  } catch (error) {
    if (error instanceof RelayCallError && (error.status === 404 || error.status === 400)) throw data(t('usage:detail.notFound'), { status: 404 })
    throw error
  }
}

export default function UsageCallPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('usage')
  const number = useNumberFormat()
  const { call, entries } = loaderData.detail
  const facts: Fact[] = [
    { label: t('calls.time'), value: <LocalTime ms={call.create_timestamp} /> },
    { label: t('calls.key'), value: call.key_name ?? (call.client_id ? t('calls.client', { client: call.client_id }) : '—') },
    { label: t('calls.model'), value: <span className="font-mono text-sm break-all">{call.model}</span> },
    { label: t('calls.outcome'), value: <CallOutcome call={call} /> },
    { label: t('detail.status'), value: call.status },
    { label: t('detail.api'), value: `${t(`apis.${call.api}`)} · ${t('detail.streamed')} ${call.streamed ? t('detail.yes') : t('detail.no')}` },
    { label: t('calls.tokens'), value: t('calls.inOut', { input: number(call.input_tokens), output: number(call.output_tokens) }) },
    { label: t('detail.cache'), value: `${number(call.cache_read_tokens)} / ${number(call.cache_write_tokens + call.cache_write_1h_tokens)}` },
    { label: t('calls.points'), value: call.shortfall_points > 0 ? `${number(call.points)} · ${t('calls.shortfall', { points: number(call.shortfall_points) })}` : number(call.points) },
    {
      label: t('calls.timing'),
      value: `${t('calls.duration', { ms: number(call.duration_ms) })}${call.first_byte_ms === null ? '' : ` · ${t('calls.firstByte', { ms: number(call.first_byte_ms) })}`}`,
    },
    { label: t('calls.requestId'), value: <span className="font-mono text-sm break-all">{call.id}</span> },
  ]
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('detail.subtitle')}
        above={
          <Link to="/usage" className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
            <ArrowLeft className="size-4" aria-hidden />
            {t('detail.back')}
          </Link>
        }
      />
      <Card aria-labelledby="call-title">
        <CardTitle id="call-title">{t('detail.facts')}</CardTitle>
        <Facts facts={facts} size="sm" className="mt-4 grid-cols-2 sm:grid-cols-3 lg:grid-cols-4" />
      </Card>
      <ChargeLines charge={call.charge} />
      <Card aria-labelledby="entries-title" data-testid="call-entries">
        <CardTitle id="entries-title">{t('detail.entries')}</CardTitle>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('detail.entriesHint')}</p>
        {entries.length === 0 ? (
          <p className="mt-4 text-sm text-zinc-500 dark:text-zinc-400">{t('detail.noEntries')}</p>
        ) : (
          <Table
            className="mt-3"
            columns={[
              { id: 'time', label: t('calls.time') },
              { id: 'type', label: t('detail.type') },
              { id: 'change', label: t('calls.points'), align: 'end' },
              { id: 'balance', label: t('detail.balanceAfter'), align: 'end' },
            ]}
          >
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="py-2.5 pr-3 text-zinc-600 dark:text-zinc-400">
                  <LocalTime ms={entry.create_timestamp} />
                </td>
                <td className="py-2.5 pr-3">{t(`detail.types.${entry.type}`)}</td>
                <td className={cn('py-2.5 pr-3 text-right font-semibold tabular-nums', entry.change > 0 && 'text-emerald-600 dark:text-emerald-400')}>
                  {entry.change > 0 ? '+' : ''}
                  {number(entry.change)}
                </td>
                <td className="py-2.5 text-right text-zinc-600 tabular-nums dark:text-zinc-400">{number(entry.balance_after)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  )
}
