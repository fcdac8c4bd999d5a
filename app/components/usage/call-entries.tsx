/**
 * The points rows a call wrote (frozen, unfrozen, consumed), as its page shows them to its owner
 * and to an operator.
 */
import { useTranslation } from 'react-i18next'
import type { UsageCallDetail } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Table } from '#app/components/ui/table.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export function CallEntries({ entries }: { entries: UsageCallDetail['entries'] }) {
  const { t } = useTranslation('usage')
  const number = useNumberFormat()
  return (
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
  )
}
