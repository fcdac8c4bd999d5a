import { useTranslation } from 'react-i18next'
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root'
import { Toaster } from '#app/components/toaster.tsx'
import { ErrorPage } from '#app/components/error-page.tsx'
import { formBodyMiddleware } from '#app/middleware/form-body.server.ts'
import { getLocale, i18nMiddleware } from '#app/middleware/i18n.server.ts'
import { sessionMiddleware } from '#app/middleware/session.server.ts'
import { takeToast, toastMiddleware } from '#app/middleware/toast.server.ts'
import { useNonce } from '#app/utils/nonce.tsx'
import { readTheme } from '#app/utils/preferences.server.ts'
import stylesheet from '#app/styles/app.css?url'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const middleware: Route.MiddlewareFunction[] = [i18nMiddleware, formBodyMiddleware, toastMiddleware, sessionMiddleware]

export async function loader({ request, context }: Route.LoaderArgs) {
  return data({
    locale: getLocale(context),
    theme: await readTheme(request),
    toast: takeToast(context),
  })
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  const loaderData = useRouteLoaderData<typeof loader>('root')
  const { i18n } = useTranslation()
  const lang = loaderData?.locale ?? i18n.language
  return (
    <html lang={lang} data-theme={loaderData?.theme ?? 'system'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
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
