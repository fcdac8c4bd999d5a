import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'

/** The link above a detail page's title back to the list (or page) it was opened from. */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
      <ArrowLeft className="size-4" aria-hidden />
      {children}
    </Link>
  )
}
