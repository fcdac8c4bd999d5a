import { Coins, CreditCard, House, KeyRound, LayoutDashboard, LockKeyhole, LogOut, ShieldCheck, Ticket, UserPlus, UserRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, NavLink } from 'react-router'
import { cn } from '#app/components/ui/cn.ts'

export const appNavItems = [
  { to: '/dashboard', key: 'nav.dashboard', icon: LayoutDashboard },
  { to: '/subscription', key: 'nav.subscription', icon: CreditCard },
  { to: '/points', key: 'nav.points', icon: Coins },
  { to: '/tickets', key: 'nav.tickets', icon: Ticket },
  { to: '/api-keys', key: 'nav.apiKeys', icon: KeyRound },
  { to: '/referral', key: 'nav.referral', icon: UserPlus },
  // `end`: the security page below has its own entry.
  { to: '/profile', key: 'nav.profile', icon: UserRound, end: true },
  { to: '/profile/security', key: 'nav.security', icon: LockKeyhole },
] as const

export function navItemClass({ isActive }: { isActive: boolean }) {
  return cn(
    'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    isActive
      ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300'
      : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  )
}

/**
 * `adminLabel`: the user may open the operator console, and only then sees its link, labelled by
 * the layout's loader (the console's strings are not in the bundle every user downloads).
 */
export function AppNav({ adminLabel }: { adminLabel?: string | null }) {
  const { t } = useTranslation()
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col gap-1">
      <NavLink to="/" end className={navItemClass}>
        <House className="size-4 shrink-0" />
        {t('nav.home')}
      </NavLink>
      {appNavItems.map(({ to, key, icon: Icon, ...item }) => (
        <NavLink key={to} to={to} end={'end' in item} className={navItemClass} prefetch="intent">
          <Icon className="size-4 shrink-0" />
          {t(key)}
        </NavLink>
      ))}
      {adminLabel ? (
        <NavLink to="/admin" className={navItemClass} data-testid="nav-admin">
          <ShieldCheck className="size-4 shrink-0" />
          {adminLabel}
        </NavLink>
      ) : null}
      <LogoutButton />
    </nav>
  )
}

export function LogoutButton() {
  const { t } = useTranslation()
  return (
      <Form method="post" action="/auth/logout" className="mt-2 border-t border-zinc-200 pt-2 dark:border-zinc-800">
        <button type="submit" className={cn(navItemClass({ isActive: false }), 'w-full')} data-testid="logout">
          <LogOut className="size-4 shrink-0" />
          {t('nav.logout')}
        </button>
      </Form>
  )
}
