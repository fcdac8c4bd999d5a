/**
 * A destructive action asked for twice: the trigger opens a disclosure that says what will happen
 * and holds the real submit button, so it takes two deliberate clicks with or without JavaScript.
 * Open, the trigger reads "cancel": closing needs no script either. Put it inside the form it
 * submits, or put a form in `children`.
 */
import { useLocation } from 'react-router'

export function ConfirmDisclosure({
  label,
  name,
  cancelLabel,
  message,
  children,
  'data-testid': testId,
}: {
  label: string
  /** The trigger's accessible name when `label` alone is ambiguous (one per row: "Remove X"). */
  name?: string
  cancelLabel: string
  message: React.ReactNode
  children: React.ReactNode
  'data-testid'?: string
}) {
  // A new page (the answer to the submit) starts closed, as it does without JavaScript.
  const { key } = useLocation()
  return (
    <details key={key} className="group relative inline-block text-left" data-testid={testId}>
      <summary aria-label={name} className="inline-flex cursor-pointer list-none items-center rounded-lg px-2.5 py-1.5 text-sm font-semibold text-red-600 transition-colors hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 group-open:text-zinc-700 group-open:hover:bg-zinc-100 dark:text-red-400 dark:hover:bg-red-950/40 dark:group-open:text-zinc-300 dark:group-open:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden">
        <span className="whitespace-nowrap group-open:hidden">{label}</span>
        <span className="hidden whitespace-nowrap group-open:inline">{cancelLabel}</span>
      </summary>
      <div
        role="alertdialog"
        aria-label={label}
        className="z-20 mt-2 w-72 max-w-[calc(100vw-3rem)] rounded-xl border border-zinc-200 bg-white p-4 text-left shadow-lg md:absolute md:right-0 dark:border-zinc-800 dark:bg-zinc-900"
      >
        <p className="text-sm break-words text-zinc-700 dark:text-zinc-300">{message}</p>
        <div className="mt-3 flex justify-end gap-2">{children}</div>
      </div>
    </details>
  )
}
