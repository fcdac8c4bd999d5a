/**
 * Shown on every signed-in page while an operator reads as a user (docs/console.md, "View as
 * user"): whose pages these are, that nothing can be changed, and the way out (a plain form, so it
 * works without JavaScript).
 */
import { Eye } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'

export function ViewAsBanner({ username }: { username: string }) {
  const { t } = useTranslation()
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800/70 dark:bg-amber-950/60 dark:text-amber-100" data-testid="view-as-banner">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2.5 sm:px-6">
        <p className="flex min-w-0 items-center gap-2 text-sm font-medium">
          <Eye className="size-4 shrink-0" aria-hidden="true" />
          <span className="[overflow-wrap:anywhere]">{t('viewAs.banner', { name: username })}</span>
        </p>
        <Form method="post" action="/resources/view-as">
          <button
            type="submit"
            className="rounded-lg border border-amber-400 bg-white px-3 py-1 text-sm font-medium text-amber-900 hover:bg-amber-100 dark:border-amber-700 dark:bg-amber-900/40 dark:text-amber-50 dark:hover:bg-amber-900/70"
            data-testid="view-as-exit"
          >
            {t('viewAs.exit')}
          </button>
        </Form>
      </div>
    </div>
  )
}
