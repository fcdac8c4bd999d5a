import { useTranslation } from 'react-i18next'
import { Form, NavLink } from 'react-router'
import { cn } from '#app/components/ui/cn.ts'

export const appNavItems = [
  { to: '/dashboard', key: 'nav.dashboard', icon: 'M3 3h6v8H3V3Zm8 0h6v5h-6V3ZM3 13h6v4H3v-4Zm8-3h6v7h-6v-7Z' },
  { to: '/subscription', key: 'nav.subscription', icon: 'M3 6a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v1H3V6Zm0 3h14v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V9Zm3 3v1.5h4V12H6Z' },
  { to: '/points', key: 'nav.points', icon: 'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm.9 12.3v1.2H9.4v-1.2c-1.3-.2-2.3-1-2.4-2.3h1.6c.1.6.6 1 1.5 1 .9 0 1.4-.4 1.4-1 0-.5-.4-.8-1.6-1.1-1.6-.4-2.6-1-2.6-2.3 0-1.1.9-1.9 2.1-2.1V5.3h1.5v1.2c1.2.2 2 1 2.1 2.1h-1.6c-.1-.5-.6-.9-1.3-.9-.8 0-1.2.4-1.2.9s.4.7 1.6 1c1.7.4 2.6 1.1 2.6 2.4 0 1.2-.9 2-2.2 2.3Z' },
  { to: '/tickets', key: 'nav.tickets', icon: 'M4 4h12a1 1 0 0 1 1 1v3a2 2 0 0 0 0 4v3a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-3a2 2 0 0 0 0-4V5a1 1 0 0 1 1-1Z' },
  { to: '/api-keys', key: 'nav.apiKeys', icon: 'M12.5 2a5.5 5.5 0 0 0-5.2 7.3L2 14.6V18h3.4v-2h2v-2h2l1.3-1.3A5.5 5.5 0 1 0 12.5 2Zm1.5 5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Z' },
  { to: '/referral', key: 'nav.referral', icon: 'M7 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7 1a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM1 16c0-3 2.7-5 6-5s6 2 6 5v1H1v-1Zm13 1v-1c0-1.6-.6-3-1.6-4 .5-.1 1-.2 1.6-.2 2.6 0 5 1.6 5 4.2v1h-5Z' },
  { to: '/profile', key: 'nav.profile', icon: 'M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8c0-3.3 3.1-6 7-6s7 2.7 7 6H3Z' },
] as const

function itemClass({ isActive }: { isActive: boolean }) {
  return cn(
    'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    isActive
      ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300'
      : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  )
}

export function AppNav() {
  const { t } = useTranslation()
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col gap-1">
      <NavLink to="/" end className={itemClass}>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0" fill="currentColor">
          <path d="M10 3 2 9h2v8h4v-5h4v5h4V9h2l-8-6Z" />
        </svg>
        {t('nav.home')}
      </NavLink>
      {appNavItems.map((item) => (
        <NavLink key={item.to} to={item.to} className={itemClass} prefetch="intent">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0" fill="currentColor">
            <path d={item.icon} />
          </svg>
          {t(item.key)}
        </NavLink>
      ))}
      <Form method="post" action="/auth/logout" className="mt-2 border-t border-zinc-200 pt-2 dark:border-zinc-800">
        <button type="submit" className={cn(itemClass({ isActive: false }), 'w-full')} data-testid="logout">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0" fill="currentColor">
            <path d="M4 3h7v2H5v10h6v2H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1Zm9.3 3.3L17 10l-3.7 3.7-1.4-1.4 1.3-1.3H8V9h5.2l-1.3-1.3 1.4-1.4Z" />
          </svg>
          {t('nav.logout')}
        </button>
      </Form>
    </nav>
  )
}
