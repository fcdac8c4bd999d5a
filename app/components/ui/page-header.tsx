/**
 * The head of a signed-in page: its title (the page's one `h1`) and what it is for, with the
 * page's own actions at the end (a button, a badge) and an optional back link above.
 */
import { cn } from './cn.ts'

export function PageHeader({
  title,
  subtitle,
  above,
  actions,
}: {
  title: React.ReactNode
  subtitle: React.ReactNode
  above?: React.ReactNode
  actions?: React.ReactNode
}) {
  return (
    <header className={cn(actions !== undefined && 'flex flex-wrap items-end justify-between gap-3')}>
      <div>
        {above}
        <h1 className={cn('text-2xl font-bold tracking-tight', above !== undefined && 'mt-2')}>{title}</h1>
        <p className="mt-1 max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p>
      </div>
      {actions}
    </header>
  )
}
