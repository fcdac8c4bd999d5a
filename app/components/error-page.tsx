/**
 * The error page. A relay that is down (503) or too slow for the page's budget (504) keeps the
 * session: the page says so and offers a retry, never a login (docs/product.md).
 */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClass } from '#app/components/ui/button.tsx'

export function ErrorPage({ status }: { status: number }) {
  const { t } = useTranslation()
  const kind =
    status === 404 ? 'notFound' : status === 503 ? 'unavailable' : status === 504 ? 'slow' : status >= 400 && status < 500 ? 'badRequest' : 'unexpected'
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-6 py-16 text-center">
      <p className="text-sm font-semibold text-indigo-600 dark:text-indigo-400">{status}</p>
      <h1 className="text-2xl font-bold tracking-tight">{t(`errorPage.${kind}.title`)}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">{t(`errorPage.${kind}.body`)}</p>
      <div className="flex gap-3">
        <a href="" className={buttonClass({ variant: 'primary' })} data-testid="retry">
          {t('errorPage.retry')}
        </a>
        <Link to="/" className={buttonClass({ variant: 'secondary' })} reloadDocument>
          {t('nav.home')}
        </Link>
      </div>
    </main>
  )
}
