import { useTranslation } from 'react-i18next'
import { Link, Outlet } from 'react-router'
import type { Route } from './+types/public'
import type { HydrateHandle } from '#app/root.tsx'
import { Brand } from '#app/components/layout/brand.tsx'
import { SettingsMenu } from '#app/components/layout/settings-menu.tsx'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { getSession } from '#app/middleware/session.server.ts'

// Complete without JavaScript: hydrates at the visitor's first interaction (docs/decisions/030-first-paint-and-charts.md).
export const handle: HydrateHandle = { hydrate: 'on-interaction' }

export function loader({ context }: Route.LoaderArgs) {
  return { signedIn: getSession(context) !== null }
}

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-30 border-b border-zinc-200/80 bg-white/80 backdrop-blur dark:border-zinc-800/80 dark:bg-zinc-950/80">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          <Brand />
          <nav className="flex items-center gap-1 sm:gap-2">
            <Link to="/pricing" className={buttonClass({ variant: 'ghost', className: 'hidden md:inline-flex' })}>
              {t('footer.pricing')}
            </Link>
            <Link to="/status" className={buttonClass({ variant: 'ghost', className: 'hidden md:inline-flex' })}>
              {t('footer.status')}
            </Link>
            <Link to="/api/docs" className={buttonClass({ variant: 'ghost', className: 'hidden md:inline-flex' })}>
              {t('footer.apiDocs')}
            </Link>
            <SettingsMenu />
            {loaderData.signedIn ? (
              <Link to="/dashboard" className={buttonClass({ variant: 'primary' })}>
                {t('nav.dashboard')}
              </Link>
            ) : (
              <>
                <Link to="/auth/login" className={buttonClass({ variant: 'ghost', className: 'hidden sm:inline-flex' })}>
                  {t('nav.login')}
                </Link>
                <Link to="/auth/register" className={buttonClass({ variant: 'primary' })}>
                  {t('nav.register')}
                </Link>
              </>
            )}
          </nav>
        </div>
      </header>
      <div className="flex-1">
        <Outlet />
      </div>
      <SiteFooter />
    </div>
  )
}
