/**
 * Which requests on the portal's origin the embedded relay answers, for the production server
 * (server/main.ts) and `npm run dev` (vite.config.ts) alike: the account API under /api and the
 * model APIs under /v1 and /v1beta (Google's, for Gemini CLI: never the portal's HTML), except the API reference, /api/docs, which is a portal page rendering the
 * relay's /api/openapi.json (docs/decisions/100-one-declaration-per-call.md). Its pages' data requests, `/api/docs.data` and
 * `/api/docs/points.data` (React Router's single fetch), are the portal's too.
 */
import { collapseLeadingSlashes } from '#relay/http/request-path.ts'

const portalPage = /^\/api\/docs(\/|\.data$|$)/

/** `path` as it came; leading slashes count as one, as on the relay (`//v1/messages` from a base URL ending in '/'). */
export function isRelayPath(requestPath: string): boolean {
  const path = collapseLeadingSlashes(requestPath)
  if (portalPage.test(path)) return false
  return path.startsWith('/api/') || path.startsWith('/v1/') || path === '/v1beta' || path.startsWith('/v1beta/')
}

/**
 * The same for a request target as Node hands it over (`req.url`, path and query as they came),
 * read as it stands: resolved against a base URL, `//v1/messages` would be the path `/messages`
 * on a host named `v1`, and the portal would answer it (the dev server did, 403 to every key).
 */
export function isRelayTarget(target: string): boolean {
  return isRelayPath(target.split('?')[0]!)
}
