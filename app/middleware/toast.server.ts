/**
 * Reads the flash toast once per request; when the root loader has shown it, the response
 * clears the cookie, unless that response sets a new toast itself.
 */
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { clearToastHeader, readToast, toastCookieName, type Toast } from '#app/utils/toast.server.ts'

interface ToastState {
  toast: Toast | null
  shown: boolean
}

const toastContext = createContext<ToastState>()

export const toastMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const state: ToastState = { toast: await readToast(request), shown: false }
  context.set(toastContext, state)
  const response = await next()
  const setsNewToast = response.headers
    .getSetCookie()
    .some((cookie) => cookie.startsWith(`${toastCookieName}=`))
  if (state.toast && state.shown && !setsNewToast) {
    response.headers.append('Set-Cookie', await clearToastHeader())
  }
  return response
}

/** The toast to render now; marks it shown so the cookie is cleared. */
export function takeToast(context: Readonly<RouterContextProvider>): Toast | null {
  const state = context.get(toastContext)
  state.shown = true
  return state.toast
}
