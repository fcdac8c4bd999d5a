/**
 * The pager under a call log, which the relay pages by a keyset cursor (docs/decisions/111-bounded-history-reads.md):
 * back to the newest page, or on to older calls; there is no page count to jump through.
 */
import { Link } from 'react-router'
import { buttonClass } from '#app/components/ui/button.tsx'

export function KeysetPager({
  newest,
  older,
  labels,
  testId,
}: {
  /** Where the newest page is, when this is not it. */
  newest: string | null
  /** Where the older calls are, when there are any. */
  older: string | null
  labels: { nav: string; newest: string; newestShown: string; older: string }
  /** Names the "older" link. */
  testId: string
}) {
  return (
    <nav aria-label={labels.nav} className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 pt-4 dark:border-zinc-800">
      {newest !== null ? (
        <Link to={newest} className="text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
          {labels.newest}
        </Link>
      ) : (
        <span className="text-sm text-zinc-500 dark:text-zinc-400">{labels.newestShown}</span>
      )}
      {older !== null ? (
        <Link to={older} className={buttonClass({ variant: 'secondary', size: 'sm' })} data-testid={testId}>
          {labels.older}
        </Link>
      ) : null}
    </nav>
  )
}
