/**
 * A list as a table: a muted header row and divided rows. On phones it either scrolls sideways
 * (`phone="scroll"`, the default: few, short columns) or leaves the column heads out and lets
 * each row lay its cells out for the narrow screen itself (`phone="stack"`, see the ticket list).
 */
import { cn } from './cn.ts'

export interface Column {
  /** Unique within the table; React's key. */
  id: string
  label: React.ReactNode
  align?: 'end'
  /** Extra classes for the header cell (e.g. `hidden sm:table-cell`). */
  className?: string
}

export function Table({
  columns,
  caption,
  phone = 'scroll',
  testId,
  className,
  children,
}: {
  columns: Column[]
  /** For screen readers: what the table lists. */
  caption?: string
  phone?: 'scroll' | 'stack'
  testId?: string
  className?: string
  /** The `<tr>` rows. */
  children: React.ReactNode
}) {
  const table = (
    <table className={cn('w-full text-left text-sm', className)} data-testid={testId}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className={cn('text-xs text-zinc-500 dark:text-zinc-400', phone === 'stack' && 'hidden md:table-header-group')}>
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          {columns.map((column, index) => (
            <th
              key={column.id}
              scope="col"
              className={cn('py-2 font-medium', index < columns.length - 1 && 'pr-3', column.align === 'end' && 'text-right', column.className)}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">{children}</tbody>
    </table>
  )
  return phone === 'scroll' ? <div className="overflow-x-auto">{table}</div> : table
}
