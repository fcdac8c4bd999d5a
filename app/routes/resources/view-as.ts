/**
 * The exit of an operator's view as a user (docs/console.md, "View as user"): ends the view and
 * returns to the user's page in the console. Started from that page (routes/admin/user.tsx).
 */
import { redirect } from 'react-router'
import type { Route } from './+types/view-as'
import { csrfMiddleware } from '#app/middleware/csrf.server.ts'
import { consoleUserPage, endViewAs, getViewAs } from '#app/middleware/session.server.ts'

export const middleware: Route.MiddlewareFunction[] = [csrfMiddleware]

export async function action({ context }: Route.ActionArgs) {
  const view = getViewAs(context)
  if (!view) return redirect('/admin/users')
  await endViewAs(context)
  return redirect(consoleUserPage(view))
}

export function loader() {
  return redirect('/')
}
