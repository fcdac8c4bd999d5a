/**
 * Only same-site paths are followed after login or a settings change (docs/architecture.md §8): anything
 * that could leave the site (`//host`, `/\host`, a scheme) falls back to the default.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (!to || typeof to !== 'string') return fallback
  if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  if ([...to].some((ch) => ch.charCodeAt(0) < 0x20)) return fallback
  return to
}

/**
 * Why the login page is shown instead of the page asked for, which it says in a notice:
 * `expired`, a session that ended (signed out elsewhere, password changed, past its lifetime);
 * `required`, a protected page opened without a session.
 */
export const loginReasons = ['expired', 'required'] as const
export type LoginReason = (typeof loginReasons)[number]

/** The login URL that brings the visitor back to where they were, saying why when there is a reason. */
export function loginUrl(request: Request, reason?: LoginReason): string {
  const url = new URL(request.url)
  const back = `${url.pathname}${url.search}`
  const query = new URLSearchParams()
  if (back !== '/') query.set('redirectTo', back)
  if (reason) query.set('reason', reason)
  return query.size === 0 ? '/auth/login' : `/auth/login?${query}`
}
