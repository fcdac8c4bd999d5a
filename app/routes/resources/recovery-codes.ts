/**
 * The recovery codes just shown (routes/security-two-factor.tsx) as a .txt download, one a line.
 * The relay keeps only their digests, so the page posts back the codes it shows; this answers
 * them as a file, which a plain form gets without scripts. Only well-formed codes, and only for
 * a signed-in user, so it echoes nothing else.
 */
import { redirect } from 'react-router'
import type { Route } from './+types/recovery-codes'
import { csrfMiddleware } from '#app/middleware/csrf.server.ts'
import { requireSession } from '#app/middleware/session.server.ts'
import { recoveryCodesFileSchema } from '#app/schemas/security.ts'

export const middleware: Route.MiddlewareFunction[] = [csrfMiddleware]

export async function action({ request, context }: Route.ActionArgs) {
  requireSession(request, context)
  const codes = recoveryCodesFileSchema.safeParse((await request.formData()).getAll('code'))
  if (!codes.success) return redirect('/profile/security/two-factor')
  return new Response(`${codes.data.join('\r\n')}\r\n`, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': 'attachment; filename="recovery-codes.txt"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  })
}

export function loader() {
  return redirect('/profile/security/two-factor')
}
