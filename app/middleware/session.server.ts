/**
 * Session and relay access for every request (docs/architecture.md §7):
 * - reads the encrypted session cookie;
 * - refreshes an access token that is about to expire, once per request (the relay's reuse
 *   grace makes two parallel refreshes safe), keeping the session when the relay is down;
 * - puts a relay client bound to this request's token, signal and language into the context;
 * - writes the session cookie once, after the route ran, if anything changed it.
 */
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { endpoints, type LoginData, type TokenPair, type ViewAs } from '#relay/contract/index.ts'
import { clientIpHeader } from '#server/client-ip-header.ts'
import { createRelayClient, pageBudgetMs, RelayCallError, type RelayClient } from '#app/utils/relay-client.server.ts'
import { relayTarget } from '#app/utils/relay-transport.server.ts'
import { loginUrl } from '#app/utils/safe-redirect.ts'
import {
  commitSession,
  destroySession,
  deviceCookie,
  readSession,
  sessionFromTokens,
  type SessionData,
  type ViewAsMarker,
} from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { getLocale } from './i18n.server.ts'

/** Refresh when the access token has less than this left. */
const refreshMarginMs = 5 * 60 * 1000

interface SessionState {
  session: SessionData | null
  /** The request came with a session the relay has ended: the login page says it expired. */
  ended?: boolean
  /** The Set-Cookie value to send, when the session changed during this request. */
  setCookie?: string
  /** The device cookie a sign-in hands the browser (relay/auth/device-tokens.ts). */
  setDevice?: string
}

const sessionContext = createContext<SessionState>()
const relayContext = createContext<RelayClient>()

export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const target = relayTarget()
  const headers: Record<string, string> = { 'accept-language': getLocale(context) }
  const clientIp = request.headers.get(clientIpHeader)
  if (clientIp) headers['x-forwarded-for'] = clientIp
  // The security page names each session's device by the browser that signed in or refreshed, and
  // the relay tells a sign-in from a new device by it (relay/notifications/events.ts).
  const userAgent = request.headers.get('user-agent')
  if (userAgent) headers['user-agent'] = userAgent
  // One budget for every relay call this page makes, the refresh included.
  const base = { ...target, signal: request.signal, headers, deadline: Date.now() + pageBudgetMs }

  const state: SessionState = { session: await readSession(request) }
  const now = Date.now()
  if (state.session && state.session.accessExpiresAt - now < refreshMarginMs) {
    try {
      const tokens = await createRelayClient(base).call(endpoints.accounts.refresh, {
        body: { refresh_token: state.session.refreshToken },
      })
      // A view as a user outlives the operator's token refresh, not its own end.
      const { viewAs } = state.session
      state.session = { ...sessionFromTokens(tokens, state.session.remember), ...(viewAs && { viewAs }) }
      state.setCookie = await commitSession(state.session)
    } catch (error) {
      // docs/product.md: a refused refresh logs out; a relay that is down keeps the session (the
      // unavailability is rethrown and shown as the error page).
      if (!(error instanceof RelayCallError)) throw error
      state.session = null
      state.ended = true
      state.setCookie = destroySession()
    }
  }
  context.set(sessionContext, state)

  const url = new URL(request.url)
  const viewing = state.session?.viewAs
  if (viewing && viewing.expiresAt <= now) {
    await endViewAs(context)
    return redirectWithToast(consoleUserPage(viewing), { type: 'info', key: 'common:viewAs.ended', values: { name: viewing.username } }, { headers: { 'Set-Cookie': state.setCookie! } })
  }
  // Reading as a user never acts as them: no action runs while the view lasts, except its exit and signing out.
  if (viewing && request.method !== 'GET' && request.method !== 'HEAD' && !postsWhileViewing.has(url.pathname.replace(/\.data$/, ''))) {
    return redirectWithToast(pageOf(url), { type: 'error', key: 'errors:reason.view_only' }, state.setCookie ? { headers: { 'Set-Cookie': state.setCookie } } : undefined)
  }
  // The user's pages read with the view token; the console keeps the operator's own.
  const asUser = viewing && !url.pathname.startsWith('/admin')
  context.set(
    relayContext,
    createRelayClient({
      ...base,
      accessToken: () => (asUser ? viewing.token : state.session?.accessToken),
      onUnauthenticated: () => {
        throw redirect(loginUrl(request, 'expired'), { headers: { 'Set-Cookie': destroySession() } })
      },
    }),
  )

  const response = await next()
  if (state.setCookie) response.headers.append('Set-Cookie', state.setCookie)
  if (state.setDevice) response.headers.append('Set-Cookie', state.setDevice)
  return response
}

/** The view's exit, signing out and the theme (a cookie of the operator's browser, nothing of the user's). */
const postsWhileViewing = new Set(['/resources/view-as', '/auth/logout', '/resources/theme'])

/** The page a request came from: `/api-keys.data` → `/api-keys`, `/_root.data` → `/`. */
function pageOf(url: URL): string {
  const path = url.pathname.replace(/\.data$/, '').replace(/^\/_root$/, '/')
  return path || '/'
}

export function consoleUserPage(view: Pick<ViewAsMarker, 'userId'>): string {
  return `/admin/users/${view.userId}`
}

/** The operator's view as a user, while it lasts. */
export function getViewAs(context: Readonly<RouterContextProvider>): ViewAsMarker | null {
  return context.get(sessionContext).session?.viewAs ?? null
}

/** Starts reading as the user the relay's answer names (admin user page). */
export async function startViewAs(context: Readonly<RouterContextProvider>, view: ViewAs): Promise<void> {
  const state = context.get(sessionContext)
  if (!state.session) return
  state.session = { ...state.session, viewAs: { token: view.access_token, userId: view.user.id, username: view.user.username, expiresAt: view.expires_timestamp } }
  state.setCookie = await commitSession(state.session)
}

/** Ends the view; the operator's own session goes on. */
export async function endViewAs(context: Readonly<RouterContextProvider>): Promise<void> {
  const state = context.get(sessionContext)
  if (!state.session?.viewAs) return
  const { viewAs: _ended, ...session } = state.session
  state.session = session
  state.setCookie = await commitSession(session)
}

export function getRelay(context: Readonly<RouterContextProvider>): RelayClient {
  return context.get(relayContext)
}

export function getSession(context: Readonly<RouterContextProvider>): SessionData | null {
  return context.get(sessionContext).session
}

async function storeTokens(context: Readonly<RouterContextProvider>, tokens: TokenPair, remember: boolean): Promise<void> {
  const state = context.get(sessionContext)
  state.session = sessionFromTokens(tokens, remember)
  state.setCookie = await commitSession(state.session)
}

/**
 * Signs in: the cookie is written when the response leaves the middleware. The session this
 * browser held before ends at the relay, so an earlier cookie (planted or copied) does not outlive
 * the new sign-in.
 */
export async function startSession(
  context: Readonly<RouterContextProvider>,
  login: LoginData,
  remember: boolean,
): Promise<void> {
  const previous = getSession(context)
  if (previous) {
    try {
      await getRelay(context).call(endpoints.accounts.logout, { body: { refresh_token: previous.refreshToken } })
    } catch (error) {
      // The new sign-in stands; a relay that cannot revoke now leaves the old session to expire.
      console.warn('sign-in: the previous session was not ended', error)
    }
  }
  await storeTokens(context, login, remember)
  context.get(sessionContext).setDevice = deviceCookie(login.device_token)
}

/** Replaces the tokens of the current session (after a password change), keeping remember-me. */
export async function replaceTokens(context: Readonly<RouterContextProvider>, tokens: TokenPair): Promise<void> {
  await storeTokens(context, tokens, context.get(sessionContext).session?.remember ?? false)
}

export function endSession(context: Readonly<RouterContextProvider>): void {
  const state = context.get(sessionContext)
  state.session = null
  state.setCookie = destroySession()
}

/** Navigation guard for protected routes (docs/product.md). */
export function requireSession(request: Request, context: Readonly<RouterContextProvider>): SessionData {
  const session = getSession(context)
  if (!session) throw redirect(loginUrl(request, context.get(sessionContext).ended ? 'expired' : 'required'))
  return session
}
