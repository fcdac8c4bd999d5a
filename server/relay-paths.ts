/**
 * Which requests on the portal's origin the embedded relay answers, for the production server
 * (server/main.ts) and `npm run dev` (vite.config.ts) alike: the account API under /api and the
 * model API under /v1, except the API reference, /api/docs, which is a portal page rendering the
 * relay's /api/openapi.json (docs/decisions/144).
 */
export function isRelayPath(path: string): boolean {
  if (path === '/api/docs' || path.startsWith('/api/docs/')) return false
  return path.startsWith('/api/') || path.startsWith('/v1/')
}
