/**
 * Calls as a table, as the usage log and the operators' call log list them: a table on desktop;
 * on phones each call is a card whose cells name themselves. Each page picks its columns, the
 * common ones by name and its own as cells it renders.
 */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { UsageCall } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Table } from '#app/components/ui/table.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { CallOutcome } from './call-outcome.tsx'

/** `when`: the time with the request id under it, a link to the call's page (a narrower table than `time` and `id`). */
export type CallColumnName = 'time' | 'when' | 'key' | 'model' | 'outcome' | 'tokens' | 'points' | 'timing' | 'id'

/** A page's own column: its head and what each call shows under it. */
export interface CallColumn<T> {
  id: string
  label: string
  cell: (call: T) => React.ReactNode
}

const endColumns = new Set<string>(['tokens', 'points', 'timing'])

export function CallTable<T extends UsageCall>({
  calls,
  columns,
  href,
  testId,
  noModel = '—',
}: {
  calls: T[]
  columns: Array<CallColumnName | CallColumn<T>>
  /** The call's own page, opened from its request id. */
  href: (call: T) => string
  /** Names the table (`-table`), its rows (`-row`) and the request id links (`-call-link`). */
  testId: string
  /** What stands for a model the relay never read (refused before the body). */
  noModel?: string
}) {
  const { t } = useTranslation('usage')
  const number = useNumberFormat()
  const named: Record<CallColumnName, React.ReactNode> = {
    time: t('calls.time'),
    when: (
      <>
        {t('calls.time')}
        <span className="block">{t('calls.requestId')}</span>
      </>
    ),
    key: t('calls.key'),
    model: t('calls.model'),
    outcome: t('calls.outcome'),
    tokens: t('calls.tokens'),
    points: t('calls.points'),
    timing: t('calls.timing'),
    id: t('calls.requestId'),
  }
  const heads = columns.map((column) =>
    typeof column === 'string' ? { id: column, label: named[column], align: endColumns.has(column) ? ('end' as const) : undefined } : { id: column.id, label: column.label },
  )
  // A page's column is about 930 px wide whatever the screen: names, reasons and token counts wrap
  // rather than push the table past it (English runs longest); times and figures stay on one line.
  const cell = 'flex items-baseline justify-between gap-3 py-0.5 md:table-cell md:py-2.5 md:pr-3'
  const oneLine = `${cell} md:whitespace-nowrap`
  const end = `${cell} md:text-right`
  const idLink = (call: T, className?: string) => (
    // The call's own page: its reason, timing, charge and points rows.
    <Link to={href(call)} className={cn('text-indigo-600 hover:text-indigo-500 dark:text-indigo-400', className)} data-testid={`${testId}-call-link`}>
      {call.id}
    </Link>
  )
  const cells: Record<CallColumnName, { className: string; render: (call: T) => React.ReactNode }> = {
    time: { className: `${oneLine} text-zinc-600 dark:text-zinc-400`, render: (call) => <LocalTime ms={call.create_timestamp} /> },
    when: {
      className: `${oneLine} text-zinc-600 dark:text-zinc-400`,
      render: (call) => (
        <span className="text-right md:text-left">
          <LocalTime ms={call.create_timestamp} />
          {idLink(call, 'block font-mono text-[11px]')}
        </span>
      ),
    },
    key: {
      className: `${oneLine} font-medium text-zinc-900 dark:text-zinc-100`,
      render: (call) => {
        const name = call.key_name ?? (call.client_id ? t('calls.client', { client: call.client_id }) : '—')
        return (
          <span className="truncate md:inline-block md:max-w-36 md:align-bottom" title={name}>
            {name}
          </span>
        )
      },
    },
    model: {
      className: `${cell} md:min-w-36`,
      render: (call) => (
        <span className="text-right md:text-left">
          <span className="font-mono text-xs break-all">{call.model || noModel}</span>
          <span className="block text-[11px] text-zinc-500 dark:text-zinc-400">{t(`apis.${call.api}`)}</span>
        </span>
      ),
    },
    outcome: { className: `${cell} md:min-w-32`, render: (call) => <CallOutcome call={call} /> },
    tokens: {
      className: `${end} text-xs text-zinc-600 tabular-nums dark:text-zinc-400`,
      render: (call) => (
        <span className="text-right">
          <span className="block">{t('calls.inOut', { input: number(call.input_tokens), output: number(call.output_tokens) })}</span>
          {call.cache_read_tokens ? <span className="block">{t('calls.cacheRead', { tokens: number(call.cache_read_tokens) })}</span> : null}
          {call.cache_write_tokens ? <span className="block">{t('calls.cacheWrite', { tokens: number(call.cache_write_tokens) })}</span> : null}
        </span>
      ),
    },
    points: {
      className: `${end} font-semibold tabular-nums md:whitespace-nowrap`,
      render: (call) => (
        <span className="text-right">
          {number(call.points)}
          {call.shortfall_points > 0 ? (
            <span className="block text-xs font-normal text-amber-700 dark:text-amber-300">{t('calls.shortfall', { points: number(call.shortfall_points) })}</span>
          ) : null}
        </span>
      ),
    },
    timing: {
      className: `${end} text-xs text-zinc-600 tabular-nums md:whitespace-nowrap dark:text-zinc-400`,
      render: (call) => (
        <span className="text-right">
          <span className="block">{t('calls.duration', { ms: number(call.duration_ms) })}</span>
          {call.first_byte_ms !== null ? <span className="block">{t('calls.firstByte', { ms: number(call.first_byte_ms) })}</span> : null}
        </span>
      ),
    },
    id: { className: `${oneLine} font-mono text-xs text-zinc-500 dark:text-zinc-400`, render: (call) => idLink(call) },
  }
  return (
    <Table phone="stack" caption={t('calls.title')} testId={`${testId}-table`} columns={heads}>
      {calls.map((call) => (
        <tr key={call.id} id={`call-${call.id}`} data-testid={`${testId}-row`} className="block py-3 target:bg-indigo-50 md:table-row md:py-0 dark:target:bg-indigo-950/40">
          {columns.map((column, index) => {
            const { className, render } = typeof column === 'string' ? cells[column] : { className: cell, render: column.cell }
            return (
              <td key={heads[index]!.id} className={className}>
                <span className="text-xs text-zinc-500 md:hidden dark:text-zinc-400">{heads[index]!.label}</span>
                {render(call)}
              </td>
            )
          })}
        </tr>
      ))}
    </Table>
  )
}
