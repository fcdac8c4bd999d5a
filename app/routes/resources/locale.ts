import { redirect } from 'react-router'
import type { Route } from './+types/locale'
import { csrfMiddleware } from '#app/middleware/csrf.server.ts'
import { localeCookie } from '#app/middleware/i18n.server.ts'
import { isLanguage } from '#app/locales/types.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'

export const middleware: Route.MiddlewareFunction[] = [csrfMiddleware]

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData()
  const lng = form.get('lng')
  // `?lng=` outranks the cookie (docs/architecture.md §7), so it is dropped from the page we return to.
  const back = new URL(safeRedirect(form.get('redirectTo')), 'http://portal.local')
  back.searchParams.delete('lng')
  const to = `${back.pathname}${back.search}`
  if (!isLanguage(lng)) return redirect(to)
  return redirect(to, { headers: { 'Set-Cookie': await localeCookie.serialize(lng) } })
}

export function loader() {
  return redirect('/')
}
