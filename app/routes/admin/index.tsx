/** `/admin` opens on the ticket queue, the section operators work in most. */
import { redirect } from 'react-router'

export function loader() {
  return redirect('/admin/tickets')
}
