/** Pieces both consent screens and the device screen show: who asks, and for what (spec §2). */
import { useTranslation } from 'react-i18next'
import type { OAuthScope } from '#relay/contract/oauth.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { cn } from '#app/components/ui/cn.ts'

const scopeIcons: Record<OAuthScope, string> = {
  // A person, a terminal prompt, a coin: drawn inline so the screen needs no icon font or request.
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0',
  api: 'M4 5h16v14H4zM8 10l2 2-2 2M12 14h4',
  billing: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 4v10m3-8h-4a2 2 0 0 0 0 4h2a2 2 0 0 1 0 4H9',
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
          <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" className="mt-0.5 size-5 shrink-0 text-indigo-600 dark:text-indigo-400">
            <path d={scopeIcons[scope]} />
          </svg>
          <div>
            <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100">{t(`scopes.${scope}.title`)}</p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`scopes.${scope}.body`)}</p>
          </div>
        </li>
      ))}
    </ul>
  )
}
