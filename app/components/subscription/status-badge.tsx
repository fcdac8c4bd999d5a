/**
 * A subscription's status (docs/product.md). Our relay writes `normal`; a relay that writes `active`
 * means the same (docs/architecture.md §6), and anything else is shown as unknown.
 */
import { useTranslation } from 'react-i18next'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'

const tones = { normal: 'green', expired: 'amber', disabled: 'red', none: 'zinc', unknown: 'zinc' } satisfies Record<string, BadgeTone>
type StatusKind = keyof typeof tones

export function statusKind(status: string | null | undefined): StatusKind {
  if (status === 'active') return 'normal'
  return status && status in tones ? (status as StatusKind) : 'unknown'
}

export function StatusBadge({ status, className }: { status: string | null | undefined; className?: string }) {
  const { t } = useTranslation('subscription')
  const kind = statusKind(status)
  return (
    <Badge tone={tones[kind]} data-status={kind} className={className}>
      {t(`status.${kind}`)}
    </Badge>
  )
}
