import { useTranslation } from 'react-i18next'
import type { UserStatus } from '#relay/contract/index.ts'
import { Badge } from '#app/components/ui/badge.tsx'

export function UserStatusBadge({ status }: { status: UserStatus }) {
  const { t } = useTranslation('admin')
  return (
    <Badge tone={status === 'active' ? 'green' : 'red'} data-testid="user-status" data-status={status}>
      {t(`statuses.${status}`)}
    </Badge>
  )
}
