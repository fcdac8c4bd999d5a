import { cn } from './cn.ts'

export interface Fact {
  label: string
  value: React.ReactNode
  /** A line under the value. */
  hint?: string
  testId?: string
}

const valueSize = { sm: 'mt-0.5 text-sm', md: 'mt-1 text-lg' } as const

/** A row of labelled figures inside a card (the grid columns come from `className`). */
export function Facts({ facts, size = 'md', className }: { facts: Fact[]; size?: keyof typeof valueSize; className?: string }) {
  return (
    <dl className={cn('grid gap-4', className)}>
      {facts.map((fact) => (
        <div key={fact.label} className="min-w-0" data-testid={fact.testId}>
          <dt className="text-xs text-zinc-500 dark:text-zinc-400">{fact.label}</dt>
          <dd className={cn('font-semibold tabular-nums', valueSize[size])}>{fact.value}</dd>
          {fact.hint ? <dd className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{fact.hint}</dd> : null}
        </div>
      ))}
    </dl>
  )
}
