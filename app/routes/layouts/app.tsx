import { isRouteErrorResponse, Outlet, redirect, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/app'
import { endpoints } from '#relay/contract/index.ts'
import { AnnouncementBanners } from '#app/components/announcement-banner.tsx'
import { ErrorPage } from '#app/components/error-page.tsx'
import { AppNav } from '#app/components/layout/app-nav.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, getViewAs, requireSession } from '#app/middleware/session.server.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'

/** docs/product.md: protected pages without a session go to login and come back afterwards. */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    requireSession(request, context)
    return next()
  },
]

/** Where an admin without a second factor is sent while operators require one (docs/decisions/071-secrets-sealed-with-jwt-secret.md). */
const enrolPath = '/profile/security/two-factor'

export async function loader({ request, context }: Route.LoaderArgs) {
  // Initialises the auth state (docs/product.md): a 401 here signs out through the relay client.
  const relay = getRelay(context)
  const [info, announcements] = await Promise.all([
    relay.call(endpoints.accounts.info),
    // Announcements are a courtesy: a page shows without them rather than fail.
    optionalRead(relay.call(endpoints.notifications.announcements)),
  ])
  if (info.two_factor.must_enrol && !new URL(request.url).pathname.startsWith('/profile/security')) throw redirect(enrolPath)
  const admin = info.user.user_type === 'admin'
  return { user: info.user, adminLabel: admin ? getI18n(context).t('admin:title') : null, announcements: announcements?.items ?? [], viewingAs: getViewAs(context)?.username ?? null }
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user} nav={<AppNav adminLabel={loaderData.adminLabel} />} viewingAs={loaderData.viewingAs}>
      <AnnouncementBanners items={loaderData.announcements} />
      <Outlet />
    </AppShell>
  )
}

/**
 * A page that fails keeps the signed-in frame (navigation, settings, the user's name when the
 * layout's own read succeeded): the user can move on without losing their place.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const loaderData = useRouteLoaderData<typeof loader>('routes/layouts/app')
  return (
    <AppShell user={loaderData?.user} nav={<AppNav adminLabel={loaderData?.adminLabel} />} viewingAs={loaderData?.viewingAs}>
      <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />
    </AppShell>
  )
}
