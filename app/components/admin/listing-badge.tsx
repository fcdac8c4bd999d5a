import { useTranslation } from 'react-i18next'
import type { PackageListing } from '#relay/contract/index.ts'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'

const tones = { listed: 'green', unlisted: 'amber', archived: 'zinc' } satisfies Record<PackageListing, BadgeTone>

/** Whether a package is on offer (relay/subscriptions/operator-packages.ts). */
export function ListingBadge({ listing }: { listing: PackageListing }) {
  const { t } = useTranslation('admin')
  return (
    <Badge tone={tones[listing]} data-testid="package-listing" data-listing={listing}>
      {t(`catalog.packages.listings.${listing}`)}
    </Badge>
  )
}
