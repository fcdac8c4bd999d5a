import { type LucideIcon } from 'lucide-react'
import { cn } from './cn.ts'

/**
 * What a list shows when it has nothing yet: an icon, a title, a line saying
 * how to get started, and optionally an action below.
 */
export function EmptyState({
  icon: Icon,
  title,
  body,
  children,
  testId,
  className,
}: {
  icon: LucideIcon
  title: string
  body?: string
  children?: React.ReactNode
  testId?: string
  className?: string
}) {
  return (
    <div
      className={cn('flex flex-col items-center rounded-xl border border-dashed border-zinc-300 px-6 py-10 text-center dark:border-zinc-700', className)}
      data-testid={testId}
    >
      <span className="grid size-11 place-items-center rounded-full bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
        <Icon className="size-5" />
      </span>
      <p className="mt-3 font-medium text-zinc-900 dark:text-zinc-100">{title}</p>
      {body ? <p className="mt-1 max-w-sm text-sm text-zinc-500 dark:text-zinc-400">{body}</p> : null}
      {children}
    </div>
  )
}
