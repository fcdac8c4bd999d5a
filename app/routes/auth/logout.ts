import { endpoints } from '#relay/contract/index.ts'
import type { Route } from './+types/logout'
import { csrfMiddleware } from '#app/middleware/csrf.server.ts'
import { endSession, getRelay, getSession } from '#app/middleware/session.server.ts'
import { isRelayUnavailable } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { redirect } from 'react-router'

export const middleware: Route.MiddlewareFunction[] = [csrfMiddleware]

export async function action({ context }: Route.ActionArgs) {
  const session = getSession(context)
  if (session) {
    try {
      await getRelay(context).call(endpoints.accounts.logout, { body: { refresh_token: session.refreshToken } })
    } catch (error) {
      // Signing out of the portal must work even when the relay cannot revoke the token now.
      if (!isRelayUnavailable(error)) console.warn('logout: relay refused revocation', error)
    }
  }
  endSession(context)
  return redirectWithToast('/auth/login', { type: 'success', key: 'toast.loggedOut' })
}

export function loader() {
  return redirect('/')
}
