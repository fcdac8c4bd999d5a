/** Answers whether this browser's session is still alive, for the 600 s check (docs/product.md, Constants). */
import type { Route } from './+types/session'
import { getSession } from '#app/middleware/session.server.ts'

export function loader({ context }: Route.LoaderArgs) {
  return Response.json({ active: getSession(context) !== null }, { headers: { 'Cache-Control': 'no-store' } })
}
