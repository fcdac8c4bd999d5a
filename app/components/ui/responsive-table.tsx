/**
 * A list as a table on desktop and as stacked rows on phones: the column heads show from `md`
 * up, and each row lays its cells out for the narrow screen itself (see the ticket list).
 */
import { cn } from './cn.ts'

export function ResponsiveTable({
  caption,
  columns,
  testId,
  className,
  children,
}: {
  /** For screen readers: what the table lists. */
  caption: string
  columns: Array<{ label: string; end?: boolean }>
  testId?: string
  className?: string
  /** The rows. */
  children: React.ReactNode
}) {
  return (
    <table className={cn('w-full text-left text-sm', className)} data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead className="hidden text-xs text-zinc-500 md:table-header-group dark:text-zinc-400">
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          {columns.map((column, index) => (
            <th
              key={column.label}
              scope="col"
              className={cn('py-2 font-medium', index < columns.length - 1 && 'pr-3', column.end && 'text-right')}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">{children}</tbody>
    </table>
  )
}
