/**
 * The signed-in frame: header (brand, settings, the user's name and type), a side navigation on
 * wide screens that becomes a disclosure menu on phones, and the footer. The portal's pages and
 * the operator console share it, each with its own navigation.
 */
import { Menu } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { UserInfo } from '#relay/contract/index.ts'
import { Brand } from './brand.tsx'
import { SessionWatcher } from './session-watcher.tsx'
import { SettingsMenu } from './settings-menu.tsx'
import { SiteFooter } from './site-footer.tsx'
import { ViewAsBanner } from './view-as-banner.tsx'

export function AppShell({ user, nav, viewingAs, children }: { user: UserInfo['user'] | undefined; nav: React.ReactNode; viewingAs?: string | null; children: React.ReactNode }) {
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
                {nav}
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
      {viewingAs ? <ViewAsBanner username={viewingAs} /> : null}
      <div className="mx-auto flex w-full max-w-7xl flex-1 gap-8 px-4 py-6 sm:px-6 lg:py-8">
        <aside className="hidden w-56 shrink-0 lg:block">
          <div className="sticky top-20">
            {nav}
          </div>
        </aside>
        <main className="min-w-0 flex-1">{children}</main>
      </div>
      <SiteFooter wide />
      <SessionWatcher />
    </div>
  )
}
