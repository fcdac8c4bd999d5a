/**
 * Form posts are accepted only from this site's own pages (docs/architecture.md, security). React
 * Router and remix-utils compare an `Origin` header when there is one; a request without it (a
 * script or an old client, never a current browser's form) must show its origin another way:
 * `Sec-Fetch-Site: same-origin`, or else a `Referer` on this origin. Neither: 403.
 */
import { data, type MiddlewareFunction } from 'react-router'
import { portalConfig } from '#server/env.ts'

export const sameOriginMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  if (request.method === 'GET' || request.method === 'HEAD') return next()
  if (!isSameOrigin(request)) throw data(null, { status: 403 })
  return next()
}

function isSameOrigin(request: Request): boolean {
  const own = ownOrigins(request)
  const origin = request.headers.get('origin')
  if (origin) return own.has(origin)
  const site = request.headers.get('sec-fetch-site')
  if (site) return site === 'same-origin'
  const referer = request.headers.get('referer')
  if (!referer) return false
  try {
    return own.has(new URL(referer).origin)
  } catch {
    return false
  }
}

/** The request's own origin, and PUBLIC_URL's when a proxy in front rewrites the host. */
function ownOrigins(request: Request): Set<string> {
  const origins = new Set([new URL(request.url).origin])
  const configured = portalConfig().publicUrl
  if (configured) origins.add(new URL(configured).origin)
  return origins
}
