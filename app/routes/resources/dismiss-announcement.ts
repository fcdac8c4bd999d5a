/** Dismisses an announcement for the signed-in user (components/announcement-banner.tsx), then back to the page. */
import { redirect } from 'react-router'
import type { Route } from './+types/dismiss-announcement'
import { endpoints, idSchema } from '#relay/contract/index.ts'
import { csrfMiddleware } from '#app/middleware/csrf.server.ts'
import { getRelay, requireSession } from '#app/middleware/session.server.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const middleware: Route.MiddlewareFunction[] = [csrfMiddleware]

export async function action({ request, context }: Route.ActionArgs) {
  requireSession(request, context)
  const form = await request.formData()
  const back = safeRedirect(form.get('redirectTo'), '/dashboard')
  const id = idSchema.safeParse(form.get('id'))
  // One already removed is gone either way: the page comes back without it.
  if (id.success) await optionalRead(getRelay(context).call(endpoints.notifications.dismissAnnouncement, { params: { id: id.data } }))
  return redirectWithToast(back, { type: 'info', key: 'notifications:announcements.dismissed' })
}

export function loader() {
  return redirect('/dashboard')
}
