import { useTranslation } from 'react-i18next'
import type { AdminTeam } from '#relay/contract/index.ts'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'

const tones = { normal: 'green', expired: 'zinc', disabled: 'red' } satisfies Record<AdminTeam['status'], BadgeTone>

/** A team's subscription status in the console's lists and pages. */
export function TeamStatusBadge({ status }: { status: AdminTeam['status'] }) {
  const { t } = useTranslation('admin')
  return (
    <Badge tone={tones[status]} data-status={status}>
      {t(`catalog.teams.statuses.${status}`)}
    </Badge>
  )
}
