/**
 * The state of a detail page whose record is missing (or, for a user, someone else's): what is
 * missing, why, and the way back to its list. One card for the user's ticket page and the
 * console's ticket, user, package and team pages alike.
 */
import { Search } from 'lucide-react'
import { Link } from 'react-router'
import { buttonClass } from './ui/button.tsx'
import { Card } from './ui/card.tsx'

export function NotFoundCard({
  title,
  body,
  back,
  backLabel,
  ...props
}: { title: string; body?: string; back: string; backLabel: string } & Omit<React.HTMLAttributes<HTMLElement>, 'title'>) {
  return (
    <Card className="mx-auto max-w-xl text-center" {...props}>
      <span className="mx-auto grid size-12 place-items-center rounded-full bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400">
        <Search className="size-6" />
      </span>
      <h1 className="mt-4 text-xl font-bold tracking-tight">{title}</h1>
      {body ? <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{body}</p> : null}
      <Link to={back} className={buttonClass({ variant: 'primary', className: 'mt-6' })}>
        {backLabel}
      </Link>
    </Card>
  )
}
