import { redirect } from 'react-router'
import type { Route } from './+types/theme'
import { csrfMiddleware } from '#app/middleware/csrf.server.ts'
import { themeCookie } from '#app/utils/preferences.server.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { isTheme } from '#app/utils/theme.ts'

export const middleware: Route.MiddlewareFunction[] = [csrfMiddleware]

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData()
  const theme = form.get('theme')
  const back = safeRedirect(form.get('redirectTo'))
  if (!isTheme(theme)) return redirect(back)
  return redirect(back, { headers: { 'Set-Cookie': await themeCookie.serialize(theme) } })
}

export function loader() {
  return redirect('/')
}
