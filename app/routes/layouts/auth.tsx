import { useTranslation } from 'react-i18next'
import { Outlet, redirect } from 'react-router'
import { HoneypotProvider } from 'remix-utils/honeypot/react'
import type { Route } from './+types/auth'
import type { HydrateHandle } from '#app/root.tsx'
import { Brand } from '#app/components/layout/brand.tsx'
import { SettingsMenu } from '#app/components/layout/settings-menu.tsx'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { getHoneypotInputProps, honeypotMiddleware } from '#app/middleware/honeypot.server.ts'
import { getSession } from '#app/middleware/session.server.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'

// Complete without JavaScript: hydrates at the visitor's first interaction (docs/decisions/030-first-paint-and-charts.md).
export const handle: HydrateHandle = { hydrate: 'on-interaction' }

export const middleware: Route.MiddlewareFunction[] = [honeypotMiddleware]

/** docs/product.md navigation guard: a signed-in visitor going to login or register goes where signing in would have led. */
const signedOutOnly = new Set(['/auth/login', '/auth/register'])

/**
 * The link's same-site `redirectTo`, else the dashboard (docs/decisions/099-sign-in.md): a cookie the relay has
 * ended also gets here, and its page then asks to sign in again with the destination intact.
 * Login or register again would loop.
 */
function signedInDestination(url: URL): string {
  const to = safeRedirect(url.searchParams.get('redirectTo'), '/dashboard')
  return signedOutOnly.has(new URL(to, url).pathname) ? '/dashboard' : to
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  if (getSession(context) && signedOutOnly.has(url.pathname)) throw redirect(signedInDestination(url))
  return { honeypot: await getHoneypotInputProps() }
}

export default function AuthLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  return (
    <HoneypotProvider {...loaderData.honeypot}>
      <div className="flex min-h-screen flex-col bg-gradient-to-b from-indigo-50/60 to-zinc-50 dark:from-indigo-950/30 dark:to-zinc-950">
        <header className="mx-auto flex h-14 w-full max-w-6xl items-center justify-between px-4 sm:px-6">
          <Brand />
          <SettingsMenu />
        </header>
        <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
          <div className="w-full max-w-md">
            <Outlet />
            <p className="mt-6 text-center text-xs text-zinc-500 dark:text-zinc-400">{t('auth.tagline')}</p>
          </div>
        </main>
        <SiteFooter />
      </div>
    </HoneypotProvider>
  )
}
