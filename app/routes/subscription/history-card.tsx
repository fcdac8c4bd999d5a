/** The subscription history, paged. */
import { History } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { SubscriptionHistory, SubscriptionHistoryItem } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { PagedNav } from '#app/components/points/paged-nav.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Table } from '#app/components/ui/table.tsx'

const actionTones: Record<SubscriptionHistoryItem['action'], BadgeTone> = {
  activated: 'green',
  renewed: 'indigo',
  upgraded: 'sky',
  current: 'indigo',
  expired: 'amber',
  cancelled: 'zinc',
}

export function HistoryCard({ history }: { history: SubscriptionHistory }) {
  const { t } = useTranslation('subscription')
  return (
    <Card aria-labelledby="history-title" id="history" data-testid="subscription-history">
      <CardTitle id="history-title">{t('history.title')}</CardTitle>
      {history.items.length === 0 ? (
        <EmptyState icon={History} title={t('history.empty')} className="mt-4" />
      ) : (
        <div className="mt-3">
          <Table
            columns={[
              { id: 'action', label: t('history.action') },
              { id: 'package', label: t('history.package') },
              { id: 'period', label: t('history.period') },
              { id: 'time', label: t('history.time') },
            ]}
          >
            {history.items.map((item) => (
              <tr key={item.id}>
                <td className="py-2.5 pr-3">
                  <span className="flex flex-wrap gap-1.5">
                    <Badge tone={actionTones[item.action] ?? 'zinc'}>{t(`history.actions.${item.action}`)}</Badge>
                    {item.current && item.action !== 'current' ? <Badge tone="indigo">{t('history.current')}</Badge> : null}
                  </span>
                </td>
                <td className="py-2.5 pr-3">
                  <span className="font-medium">{item.package_name}</span>
                  {item.team_name ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">{item.team_name}</span> : null}
                </td>
                <td className="py-2.5 pr-3 text-zinc-600 sm:whitespace-nowrap dark:text-zinc-400">
                  <LocalTime ms={item.start_timestamp} dateOnly /> – <LocalTime ms={item.end_timestamp} dateOnly />
                </td>
                <td className="py-2.5 text-zinc-600 sm:whitespace-nowrap dark:text-zinc-400">
                  <LocalTime ms={item.create_timestamp} />
                </td>
              </tr>
            ))}
          </Table>
        </div>
      )}
      <div className="mt-4">
        <PagedNav list={history} hash="#history" />
      </div>
    </Card>
  )
}
