/** Pieces both consent screens and the device screen show: who asks, and for what (docs/product.md). */
import { Coins, type LucideIcon, SquareTerminal, UserRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { OAuthScope } from '#relay/contract/oauth-scopes.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { cn } from '#app/components/ui/cn.ts'

const scopeIcons: Record<OAuthScope, LucideIcon> = { profile: UserRound, api: SquareTerminal, billing: Coins }

function ScopeIcon({ scope, className }: { scope: OAuthScope; className: string }) {
  const Icon = scopeIcons[scope]
  return <Icon className={className} />
}

/** The requesting client: an initial, its name, and whether it is one of ours. */
export function ClientHeading({ name, firstParty, children }: { name: string; firstParty?: boolean; children: React.ReactNode }) {
  const { t } = useTranslation('oauth')
  return (
    <div className={cn('flex gap-3', firstParty === undefined ? 'items-center' : 'items-start')}>
      <span
        aria-hidden="true"
        className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-100 text-lg font-bold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
      >
        {[...name][0]?.toUpperCase()}
      </span>
      <div className="min-w-0 space-y-1">
        <p className="text-base leading-snug text-zinc-700 dark:text-zinc-300">{children}</p>
        {firstParty === undefined ? null : (
          <Badge tone={firstParty ? 'green' : 'zinc'}>{firstParty ? t('client.firstParty') : t('client.thirdParty')}</Badge>
        )}
      </div>
    </div>
  )
}

/** The client's name as the heading sentences show it. */
export function ClientName({ children }: { children?: React.ReactNode }) {
  return <strong className="font-semibold break-words text-zinc-900 dark:text-zinc-100">{children}</strong>
}

export function PermissionList({ scopes }: { scopes: readonly OAuthScope[] }) {
  const { t } = useTranslation('oauth')
  return (
    <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
      {scopes.map((scope) => (
        <li key={scope} className="flex items-start gap-3 px-4 py-3">
          <ScopeIcon scope={scope} className="mt-0.5 size-5 shrink-0 text-indigo-600 dark:text-indigo-400" />
          <div>
            <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100">{t(`scopes.${scope}.title`)}</p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`scopes.${scope}.body`)}</p>
          </div>
        </li>
      ))}
    </ul>
  )
}
