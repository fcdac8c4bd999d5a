/**
 * Any other address under /admin: the console's 404 for an admin; for anyone else the layout has
 * already answered the same bare 404 as for the console's real pages, so no address under /admin
 * shows a visitor which pages exist (docs/decisions/115-operator-console.md).
 */
import { data } from 'react-router'

export function loader() {
  throw data(null, { status: 404 })
}

/** Never rendered (the loader always throws), but a route without a component would answer the thrown data raw instead of a page. */
export default function AdminNotFound() {
  return null
}
