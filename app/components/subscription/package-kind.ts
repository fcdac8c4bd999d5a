import type { PackageKind } from '#relay/contract/index.ts'
import type { BadgeTone } from '../ui/badge.tsx'

/** One colour per package kind wherever a package is shown. */
export const packageKindTone: Record<PackageKind, BadgeTone> = { personal: 'indigo', team: 'sky', topup: 'amber' }
