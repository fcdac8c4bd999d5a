/**
 * Page links for a paged list (docs/conventions.md paging). Plain links carrying `?page=`, so
 * they work without JavaScript; other search parameters are kept.
 */
import { Link, useLocation } from 'react-router'

export function Pagination({
  page,
  pageSize,
  total,
  hash,
  labels,
}: {
  page: number
  pageSize: number
  total: number
  /** Where the page lands, e.g. `#history`. */
  hash?: string
  labels: { nav: string; previous: string; next: string; summary: (pages: number) => string }
}) {
  const location = useLocation()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  if (pages <= 1) return null
  const href = (target: number) => {
    const search = new URLSearchParams(location.search)
    search.set('page', String(target))
    return `${location.pathname}?${search}${hash ?? ''}`
  }
  const item = 'rounded-lg px-3 py-1.5 text-sm font-medium ring-1 ring-inset'
  const enabled = `${item} text-zinc-700 ring-zinc-300 hover:bg-zinc-50 dark:text-zinc-200 dark:ring-zinc-700 dark:hover:bg-zinc-800`
  const disabled = `${item} cursor-not-allowed text-zinc-400 ring-zinc-200 dark:text-zinc-600 dark:ring-zinc-800`
  return (
    <nav aria-label={labels.nav} className="flex items-center justify-between gap-3">
      <p className="text-sm text-zinc-500 tabular-nums dark:text-zinc-400">{labels.summary(pages)}</p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={href(page - 1)} rel="prev" className={enabled} preventScrollReset>
            {labels.previous}
          </Link>
        ) : (
          <span aria-disabled="true" className={disabled}>
            {labels.previous}
          </span>
        )}
        {page < pages ? (
          <Link to={href(page + 1)} rel="next" className={enabled} preventScrollReset>
            {labels.next}
          </Link>
        ) : (
          <span aria-disabled="true" className={disabled}>
            {labels.next}
          </span>
        )}
      </div>
    </nav>
  )
}
