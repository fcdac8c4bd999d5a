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

/** The login URL that brings the visitor back to where they were. */
export function loginUrl(request: Request): string {
  const url = new URL(request.url)
  const back = `${url.pathname}${url.search}`
  return back === '/' ? '/auth/login' : `/auth/login?redirectTo=${encodeURIComponent(back)}`
}
