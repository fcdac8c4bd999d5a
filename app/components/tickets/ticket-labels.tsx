/**
 * A ticket's status, type and priority as people read them (docs/product.md). The relay may know
 * values this portal does not (a newer relay, another implementation): those read "unknown"
 * instead of breaking the page.
 */
import { useTranslation } from 'react-i18next'
import { ticketPriorities, ticketStatuses, ticketTypes, type TicketStatus } from '#relay/contract/index.ts'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'

function known<T extends string>(values: readonly T[], value: string): T | 'unknown' {
  return (values as readonly string[]).includes(value) ? (value as T) : 'unknown'
}

export const ticketStatusKind = (status: string) => known(ticketStatuses, status)
export const ticketTypeKind = (type: string) => known(ticketTypes, type)
export const ticketPriorityKind = (priority: string) => known(ticketPriorities, priority)

const statusTones = {
  pending: 'amber',
  processing: 'sky',
  completed: 'green',
  closed: 'zinc',
  rejected: 'red',
  unknown: 'zinc',
} satisfies Record<TicketStatus | 'unknown', BadgeTone>

export function TicketStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('tickets')
  const kind = ticketStatusKind(status)
  return (
    <Badge tone={statusTones[kind]} data-status={kind}>
      {t(`statuses.${kind}`)}
    </Badge>
  )
}

const priorityTones = { low: 'zinc', medium: 'indigo', high: 'red', unknown: 'zinc' } satisfies Record<string, BadgeTone>

export function TicketPriorityBadge({ priority }: { priority: string }) {
  const { t } = useTranslation('tickets')
  const kind = ticketPriorityKind(priority)
  return <Badge tone={priorityTones[kind]}>{t(`priorities.${kind}`)}</Badge>
}

export function TicketTypeLabel({ type }: { type: string }) {
  const { t } = useTranslation('tickets')
  return <>{t(`types.${ticketTypeKind(type)}`)}</>
}
