import { useTranslation } from 'react-i18next'
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root'
import { Toaster } from '#app/components/toaster.tsx'
import { ErrorPage } from '#app/components/error-page.tsx'
import { formBodyMiddleware } from '#app/middleware/form-body.server.ts'
import { getLocale, i18nMiddleware } from '#app/middleware/i18n.server.ts'
import { sameOriginMiddleware } from '#app/middleware/same-origin.server.ts'
import { sessionMiddleware } from '#app/middleware/session.server.ts'
import { takeToast, toastMiddleware } from '#app/middleware/toast.server.ts'
import { InlineStylesheet } from '#app/utils/inline-stylesheet.tsx'
import { useNonce } from '#app/utils/nonce.tsx'
import { readTheme } from '#app/utils/preferences.server.ts'
import stylesheet from '#app/styles/app.css?url'

// Builds inline the stylesheet in the head (InlineStylesheet, docs/decisions/030-first-paint-and-charts.md); only the dev server links it, for hot reload.
export const links: Route.LinksFunction = () => [
  ...(import.meta.env.DEV ? [{ rel: 'stylesheet', href: stylesheet }] : []),
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const middleware: Route.MiddlewareFunction[] = [i18nMiddleware, sameOriginMiddleware, formBodyMiddleware, toastMiddleware, sessionMiddleware]

export async function loader({ request, context }: Route.LoaderArgs) {
  return data({
    locale: getLocale(context),
    theme: await readTheme(request),
    toast: takeToast(context),
  })
}

/** A layout route's `handle`: `{ hydrate: 'on-interaction' }` for pages complete without JavaScript. */
export interface HydrateHandle {
  hydrate?: 'on-interaction'
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  const loaderData = useRouteLoaderData<typeof loader>('root')
  const { i18n } = useTranslation()
  const lang = loaderData?.locale ?? i18n.language
  // Read once by entry.client: public pages hydrate at the first interaction (docs/decisions/030-first-paint-and-charts.md).
  const hydrate = useMatches().some((match) => (match.handle as HydrateHandle | undefined)?.hydrate === 'on-interaction') ? 'on-interaction' : undefined
  return (
    <html lang={lang} data-theme={loaderData?.theme ?? 'system'} data-hydrate={hydrate}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <InlineStylesheet />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Outlet />
      <Toaster toast={loaderData.toast} />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500
  return <ErrorPage status={status} />
}
