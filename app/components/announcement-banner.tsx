/**
 * Announcements in force, above every signed-in page (the dashboard included), most severe first:
 * the first as a banner, the others folded under one line that says how many (a `<details>`, so it
 * opens without JavaScript), so five announcements do not push every page down. Dismissing is a form POST that records it for the user: the page comes back without it, with
 * or without JavaScript (with it, without leaving the page).
 */
import { AlertTriangle, ChevronDown, Info, OctagonAlert, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useFetcher, useLocation } from 'react-router'
import type { Announcement } from '#relay/contract/index.ts'
import { cn } from '#app/components/ui/cn.ts'

const levels = {
  info: { icon: Info, tone: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-100' },
  warning: { icon: AlertTriangle, tone: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100' },
  critical: { icon: OctagonAlert, tone: 'border-red-200 bg-red-50 text-red-900 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100' },
} as const

export function AnnouncementBanners({ items }: { items: Announcement[] }) {
  const { t } = useTranslation('notifications')
  const [first, ...rest] = items
  if (!first) return null
  return (
    <div className="mb-6 space-y-2" data-testid="announcements">
      <AnnouncementBanner item={first} />
      {rest.length > 0 ? (
        <details className="group" data-testid="announcements-more">
          <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden">
            <ChevronDown className="size-3.5 transition-transform group-open:rotate-180" aria-hidden="true" />
            {t('announcements.more', { count: rest.length })}
          </summary>
          <div className="mt-2 space-y-2">
            {rest.map((item) => (
              <AnnouncementBanner key={item.id} item={item} />
            ))}
          </div>
        </details>
      ) : null}
    </div>
  )
}

function AnnouncementBanner({ item }: { item: Announcement }) {
  const { t } = useTranslation('notifications')
  const fetcher = useFetcher()
  const { pathname, search } = useLocation()
  const { icon: Icon, tone } = levels[item.level]
  // Hidden as soon as it is dismissed; the layout's data then comes back without it.
  if (fetcher.state !== 'idle') return null
  return (
    <section
      aria-label={t('announcements.label')}
      role={item.level === 'critical' ? 'alert' : 'status'}
      className={cn('flex items-start gap-3 rounded-lg border px-4 py-3 text-sm', tone)}
      data-testid="announcement"
      data-level={item.level}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 flex-1 break-words whitespace-pre-line">
        <span className="sr-only">{t(`announcements.levels.${item.level}`)}: </span>
        {item.message}
      </p>
      <fetcher.Form method="post" action="/resources/dismiss-announcement" className="-my-1 -mr-2 shrink-0">
        <input type="hidden" name="id" value={item.id} />
        <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
        <button type="submit" className="grid size-8 place-items-center rounded-md opacity-70 hover:bg-black/5 hover:opacity-100 dark:hover:bg-white/10" aria-label={t('announcements.dismiss')} title={t('announcements.dismiss')}>
          <X className="size-4" />
        </button>
      </fetcher.Form>
    </section>
  )
}
