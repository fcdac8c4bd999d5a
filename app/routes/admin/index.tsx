/** `/admin` opens on the ticket queue, the section operators work in most. */
import { redirect } from 'react-router'

export function loader() {
  return redirect('/admin/tickets')
}

/**
 * Never rendered (the loader always redirects), but without a component this would be a resource
 * route, and the layout's 404 would reach a non-admin as a bare `null` instead of the 404 page
 * every other console address answers (docs/decisions/132).
 */
export default function AdminIndex() {
  return null
}
