/**
 * How the console shows call figures (relay/contract/admin-ops.ts): error rates, latencies as the
 * histogram bound they are under ("< 4 ms", docs/decisions/120-figures-from-hourly-aggregates.md), a provider's circuit state, and a
 * table of figures per name that stands beside each chart.
 */
import { useTranslation } from 'react-i18next'
import type { AdminProvider, CallFigures } from '#relay/contract/index.ts'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { numberFormat } from '#app/utils/intl-formats.ts'

/** Failed calls over calls, in percent with one decimal; a dash without calls. */
export function ErrorRate({ figures }: { figures: Pick<CallFigures, 'calls' | 'failures'> }) {
  const { i18n } = useTranslation()
  if (figures.calls === 0) return <span className="text-zinc-400 dark:text-zinc-500">–</span>
  return <>{numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(figures.failures / figures.calls)}</>
}

/** Successful calls over calls, for providers. */
export function SuccessRate({ figures }: { figures: Pick<CallFigures, 'calls' | 'failures'> }) {
  const { i18n } = useTranslation()
  if (figures.calls === 0) return <span className="text-zinc-400 dark:text-zinc-500">–</span>
  return <>{numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(1 - figures.failures / figures.calls)}</>
}

export function Latency({ below }: { below: number | null }) {
  const { t } = useTranslation('admin')
  if (below === null) return <span className="text-zinc-400 dark:text-zinc-500">–</span>
  return <span className="whitespace-nowrap">{t('ops.overview.below', { ms: below })}</span>
}

const circuitTones = { closed: 'green', open: 'red', 'half-open': 'amber' } satisfies Record<AdminProvider['circuit']['state'], BadgeTone>

export function CircuitBadge({ provider }: { provider: AdminProvider }) {
  const { t } = useTranslation('admin')
  const { circuit } = provider
  return (
    <span className="inline-flex flex-wrap items-center gap-1" data-testid="circuit-state" data-state={circuit.state}>
      <Badge tone={circuitTones[circuit.state]}>{t(`ops.circuit.${circuit.state}`)}</Badge>
      {circuit.open_until !== null ? (
        <span className="text-xs text-zinc-500 dark:text-zinc-400">
          {t('ops.circuit.until')} <LocalTime ms={circuit.open_until} />
        </span>
      ) : null}
    </span>
  )
}

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('admin')
  return <Badge tone={enabled ? 'indigo' : 'zinc'}>{t(enabled ? 'ops.providers.enabled' : 'ops.providers.disabled')}</Badge>
}

/** Every row behind a chart, with its figures. */
export function FiguresTable({ rows, nameLabel, caption, testId }: { rows: Array<CallFigures & { name: string }>; nameLabel: string; caption: string; testId?: string }) {
  const { t, i18n } = useTranslation('admin')
  const numbers = numberFormat(i18n.language)
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('ops.overview.noCalls')}</p>
  return (
    <Table
      caption={caption}
      testId={testId}
      columns={[
        { id: 'name', label: nameLabel },
        { id: 'calls', label: t('ops.overview.calls'), align: 'end', className: 'whitespace-nowrap' },
        { id: 'errors', label: t('ops.overview.errorRate'), align: 'end', className: 'whitespace-nowrap' },
        { id: 'points', label: t('ops.overview.points'), align: 'end', className: 'whitespace-nowrap' },
        // Phones keep the counts; the latencies are in the tiles above.
        { id: 'p50', label: t('ops.overview.p50'), align: 'end', className: 'hidden whitespace-nowrap sm:table-cell' },
        { id: 'p95', label: t('ops.overview.p95'), align: 'end', className: 'hidden whitespace-nowrap sm:table-cell' },
      ]}
    >
      {rows.map((row) => (
        <tr key={row.name} data-testid="figures-row">
          <td className="max-w-56 py-2 pr-3 [overflow-wrap:anywhere]">{row.name}</td>
          <td className="py-2 pr-3 text-right tabular-nums">{numbers.format(row.calls)}</td>
          <td className="py-2 pr-3 text-right tabular-nums">
            <ErrorRate figures={row} />
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">{numbers.format(row.points)}</td>
          <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">
            <Latency below={row.relay_p50_below_ms} />
          </td>
          <td className="hidden py-2 text-right tabular-nums sm:table-cell">
            <Latency below={row.relay_p95_below_ms} />
          </td>
        </tr>
      ))}
    </Table>
  )
}
