/** What each ticket status means (docs/product.md "a status help legend"), beside the ticket. */
import { useTranslation } from 'react-i18next'
import { ticketStatuses } from '#relay/contract/index.ts'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { TicketStatusBadge } from './ticket-labels.tsx'

export function StatusLegend({ current }: { current?: string }) {
  const { t } = useTranslation('tickets')
  return (
    <Card aria-labelledby="legend-title">
      <CardTitle id="legend-title">{t('legend.title')}</CardTitle>
      <dl className="mt-4 space-y-3">
        {ticketStatuses.map((status) => (
          <div
            key={status}
            aria-current={status === current ? 'true' : undefined}
            className="rounded-lg p-2 -m-2 aria-[current=true]:bg-zinc-50 dark:aria-[current=true]:bg-zinc-800/60"
          >
            <dt>
              <TicketStatusBadge status={status} />
            </dt>
            <dd className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t(`legend.${status}`)}</dd>
          </div>
        ))}
      </dl>
    </Card>
  )
}
