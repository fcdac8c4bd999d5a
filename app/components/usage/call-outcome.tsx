/** How a call ended, as the usage log and a call's page show it: a badge and, below, why. */
import { useTranslation } from 'react-i18next'
import type { UsageCall } from '#relay/contract/index.ts'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'

const outcomeTones: Record<UsageCall['outcome'], BadgeTone> = { answered: 'green', refused: 'amber', failed: 'red', abandoned: 'zinc' }

/** The relay's refusals the log names in words; another reason shows as the status. */
const refusalKinds = [
  'key_disabled',
  'model_not_allowed',
  'key_rate_limited',
  'key_quota_exhausted',
  'member_cap_reached',
  'insufficient_points',
  'no_subscription',
  'unknown_model',
  'no_provider',
  'key_address_refused',
  'insufficient_scope',
] as const

export function CallOutcome({ call }: { call: UsageCall }) {
  const { t } = useTranslation('usage')
  const known = refusalKinds.find((kind) => kind === call.refusal)
  const reason = known
    ? t(`refusal.${known}`)
    : call.outcome === 'refused'
      ? t('refusal.provider', { status: call.status })
      : call.outcome === 'failed'
        ? t('refusal.status', { status: call.status })
        : ''
  return (
    <span className="text-right md:text-left">
      <Badge tone={outcomeTones[call.outcome]} data-testid="usage-outcome">
        {t(`outcome.${call.outcome}`)}
      </Badge>
      {reason ? <span className="mt-0.5 block text-xs font-normal text-zinc-500 dark:text-zinc-400">{reason}</span> : null}
    </span>
  )
}
