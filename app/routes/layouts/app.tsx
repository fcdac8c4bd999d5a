import { Menu } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { isRouteErrorResponse, Outlet, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/app'
import { endpoints, type UserInfo } from '#relay/contract/index.ts'
import { ErrorPage } from '#app/components/error-page.tsx'
import { AppNav } from '#app/components/layout/app-nav.tsx'
import { Brand } from '#app/components/layout/brand.tsx'
import { SessionWatcher } from '#app/components/layout/session-watcher.tsx'
import { SettingsMenu } from '#app/components/layout/settings-menu.tsx'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { getRelay, requireSession } from '#app/middleware/session.server.ts'

/** docs/product.md: protected pages without a session go to login and come back afterwards. */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    requireSession(request, context)
    return next()
  },
]

export async function loader({ context }: Route.LoaderArgs) {
  // Initialises the auth state (docs/product.md): a 401 here signs out through the relay client.
  const info = await getRelay(context).call(endpoints.accounts.info)
  return { user: info.user }
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user}>
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
    <AppShell user={loaderData?.user}>
      <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />
    </AppShell>
  )
}

function AppShell({ user, children }: { user: UserInfo['user'] | undefined; children: React.ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-30 border-b border-zinc-200/80 bg-white/85 backdrop-blur dark:border-zinc-800/80 dark:bg-zinc-950/85">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <div className="flex items-center gap-2">
            {/* Phone navigation: a disclosure, so it opens without JavaScript. */}
            <details className="relative lg:hidden">
              <summary
                className="flex cursor-pointer list-none items-center rounded-lg p-2 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden"
                aria-label={t('nav.menu')}
              >
                <Menu className="size-5" />
              </summary>
              <div className="absolute left-0 z-40 mt-2 w-64 rounded-xl border border-zinc-200 bg-white p-2 shadow-lg dark:border-zinc-800 dark:bg-zinc-900">
                <AppNav />
              </div>
            </details>
            <Brand />
          </div>
          <div className="flex items-center gap-2">
            <SettingsMenu />
            {user ? (
              <>
                <span className="hidden text-sm text-zinc-600 sm:inline dark:text-zinc-400" data-testid="current-user">
                  {user.username}
                </span>
                <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
                  {t(`userType.${user.user_type}`)}
                </span>
              </>
            ) : null}
          </div>
        </div>
      </header>
      <div className="mx-auto flex w-full max-w-7xl flex-1 gap-8 px-4 py-6 sm:px-6 lg:py-8">
        <aside className="hidden w-56 shrink-0 lg:block">
          <div className="sticky top-20">
            <AppNav />
          </div>
        </aside>
        <main className="min-w-0 flex-1">{children}</main>
      </div>
      <SiteFooter wide />
      <SessionWatcher />
    </div>
  )
}
