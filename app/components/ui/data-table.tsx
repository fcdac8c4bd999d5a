import { cn } from './cn.ts'

export interface Column {
  /** Unique within the table; React's key. */
  id: string
  label: React.ReactNode
  align?: 'right'
  /** Extra classes for the header cell (e.g. `hidden sm:table-cell`). */
  className?: string
}

/** A list as a table: a muted header row, divided rows, sideways scrolling when it cannot fit. */
export function DataTable({
  columns,
  children,
  className,
  testId,
}: {
  columns: Column[]
  /** The `<tr>` rows. */
  children: React.ReactNode
  className?: string
  testId?: string
}) {
  return (
    <div className="overflow-x-auto">
      <table className={cn('w-full text-left text-sm', className)} data-testid={testId}>
        <thead className="border-b border-zinc-200 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
          <tr>
            {columns.map((column, index) => (
              <th
                key={column.id}
                scope="col"
                className={cn(
                  'py-2 font-medium',
                  index < columns.length - 1 && 'pr-3',
                  column.align === 'right' && 'text-right',
                  column.className,
                )}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">{children}</tbody>
      </table>
    </div>
  )
}
