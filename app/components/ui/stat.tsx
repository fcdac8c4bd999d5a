import { cn } from './cn.ts'

/** One figure as a tile: its label, the value, an optional line under it. Place inside a `<dl>`. */
export function Stat({
  label,
  value,
  detail,
  className,
  testId,
}: {
  label: string
  value: React.ReactNode
  detail?: React.ReactNode
  className?: string
  testId?: string
}) {
  return (
    <div
      className={cn(
        'min-w-0 rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm sm:p-5 dark:border-zinc-800 dark:bg-zinc-900',
        className,
      )}
      data-testid={testId}
    >
      <dt className="text-sm text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1.5 flex flex-wrap items-center gap-2 text-xl font-semibold [overflow-wrap:anywhere] sm:text-2xl tracking-tight text-zinc-900 tabular-nums dark:text-zinc-50">
        {value}
      </dd>
      {detail ? <dd className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{detail}</dd> : null}
    </div>
  )
}
