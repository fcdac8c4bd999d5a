/**
 * The operator console's frame (docs/decisions/115-operator-console.md): for users of type admin only. Anyone else —
 * signed out, or signed in as any other type — gets the plain 404 page and no sign of the
 * console; the relay refuses its calls to them the same way.
 */
import { Activity, BellRing, ClipboardList, Coins, Gauge, Gift, KeyRound, Link2, Megaphone, Package, Scale, ScrollText, Server, Share2, Siren, Tags, Ticket, Users, UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { createContext, data, isRouteErrorResponse, NavLink, Outlet, redirect, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/layout'
import { endpoints, type UserInfo } from '#relay/contract/index.ts'
import { ErrorPage } from '#app/components/error-page.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { LogoutButton, navItemClass } from '#app/components/layout/app-nav.tsx'
import { getRelay, getSession, getViewAs } from '#app/middleware/session.server.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'

const adminContext = createContext<UserInfo['user']>()

/** Runs before any console loader, so none of them calls the relay for someone who is not an admin. */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context }, next) => {
    if (!getSession(context)) throw data(null, { status: 404 })
    const { user, two_factor: twoFactor } = await getRelay(context).call(endpoints.accounts.info)
    if (user.user_type !== 'admin') throw data(null, { status: 404 })
    // REQUIRE_ADMIN_TWO_FACTOR: the relay refuses the console's calls until the admin enrols (docs/decisions/071-secrets-sealed-with-jwt-secret.md).
    if (twoFactor.must_enrol) throw redirect('/profile/security/two-factor')
    context.set(adminContext, user)
    return next()
  },
]

export function loader({ context }: Route.LoaderArgs) {
  return { user: context.get(adminContext), admin: routeNamespace(context, 'admin'), viewingAs: getViewAs(context)?.username ?? null }
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.admin)
  return (
    <AppShell user={loaderData.user} nav={<AdminNav />} viewingAs={loaderData.viewingAs}>
      <Outlet />
    </AppShell>
  )
}

/**
 * A console page that fails keeps the console's frame; a visitor the middleware turned away
 * (no loader data) sees the bare 404 page any unknown address could give.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const loaderData = useRouteLoaderData<typeof loader>('routes/admin/layout')
  const status = isRouteErrorResponse(error) ? error.status : 500
  if (!loaderData) return <ErrorPage status={status} />
  return <AdminErrorFrame loaderData={loaderData} status={status} />
}

function AdminErrorFrame({ loaderData, status }: { loaderData: Awaited<ReturnType<typeof loader>>; status: number }) {
  useRouteNamespace(loaderData.admin)
  return (
    <AppShell user={loaderData.user} nav={<AdminNav />} viewingAs={loaderData.viewingAs}>
      <ErrorPage status={status} />
    </AppShell>
  )
}

const sections = [
  { to: '/admin', key: 'ops.nav.overview', icon: Gauge, end: true },
  { to: '/admin/tickets', key: 'nav.tickets', icon: Ticket },
  { to: '/admin/users', key: 'nav.users', icon: Users },
  { to: '/admin/calls', key: 'nav.calls', icon: Activity },
  { to: '/admin/codes', key: 'nav.codes', icon: Gift },
  { to: '/admin/announcements', key: 'nav.announcements', icon: Megaphone },
  { to: '/admin/incidents', key: 'nav.incidents', icon: Siren },
  { to: '/admin/audit', key: 'nav.audit', icon: ScrollText },
  // Operations (docs/decisions/120-figures-from-hourly-aggregates.md, decisions/115-operator-console.md).
  { to: '/admin/providers', key: 'ops.nav.providers', icon: Server },
  { to: '/admin/pricing', key: 'ops.nav.pricing', icon: Coins },
  { to: '/admin/reconciliation', key: 'ops.nav.reconciliation', icon: Scale },
  { to: '/admin/list-prices', key: 'ops.nav.listPrices', icon: Tags },
  { to: '/admin/alerts', key: 'ops.nav.alerts', icon: BellRing },
] as const

/** The catalogue (docs/decisions/115-operator-console.md): what users are offered and which apps may ask them for access. */
const catalogSections = [
  { to: '/admin/packages', key: 'catalog.nav.packages', icon: Package },
  { to: '/admin/teams', key: 'catalog.nav.teams', icon: UsersRound },
  { to: '/admin/resources', key: 'catalog.nav.resources', icon: Link2 },
  { to: '/admin/referral', key: 'catalog.nav.referral', icon: Share2 },
  { to: '/admin/oauth-clients', key: 'catalog.nav.clients', icon: KeyRound },
] as const

function AdminNav() {
  const { t } = useTranslation('admin')
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col gap-1" data-testid="admin-nav">
      <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">{t('title')}</p>
      {[...sections, ...catalogSections].map(({ to, key, icon: Icon, ...rest }) => (
        <NavLink key={to} to={to} end={'end' in rest} className={navItemClass}>
          <Icon className="size-4 shrink-0" />
          {t(key)}
        </NavLink>
      ))}
      <NavLink to="/dashboard" className={navItemClass}>
        <ClipboardList className="size-4 shrink-0" />
        {t('nav.portal')}
      </NavLink>
      <LogoutButton />
    </nav>
  )
}
