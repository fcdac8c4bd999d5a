import { cn } from './cn.ts'

/** A share of a whole, e.g. points used of the package limit; `label` names it for screen readers. */
export function ProgressBar({ value, max, label, className }: { value: number; max: number; label: string; className?: string }) {
  const share = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      className={cn('h-2.5 w-full overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800', className)}
    >
      <div
        className={cn('h-full rounded-full', share >= 0.9 ? 'bg-amber-500 dark:bg-amber-400' : 'bg-indigo-500 dark:bg-indigo-400')}
        style={{ width: `${share * 100}%` }}
      />
    </div>
  )
}
