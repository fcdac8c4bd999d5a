import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/** `wide` matches the signed-in shell, whose header spans max-w-7xl. */
export function SiteFooter({ wide = false }: { wide?: boolean }) {
  const { t } = useTranslation()
  const year = new Date().getFullYear()
  return (
    <footer className="border-t border-zinc-200 dark:border-zinc-800">
      <div className={`mx-auto flex ${wide ? 'max-w-7xl' : 'max-w-6xl'} flex-col gap-3 px-4 py-6 text-sm text-zinc-500 sm:flex-row sm:items-center sm:justify-between sm:px-6 dark:text-zinc-400`}>
        <p>{t('footer.copyright', { year })}</p>
        <nav className="flex flex-wrap gap-x-5 gap-y-2" aria-label={t('footer.label')}>
          <Link to="/pricing" className="hover:text-zinc-900 dark:hover:text-zinc-100">
            {t('footer.pricing')}
          </Link>
          <Link to="/status" className="hover:text-zinc-900 dark:hover:text-zinc-100">
            {t('footer.status')}
          </Link>
          <Link to="/api/docs" className="hover:text-zinc-900 dark:hover:text-zinc-100">
            {t('footer.apiDocs')}
          </Link>
          <Link to="/privacy" className="hover:text-zinc-900 dark:hover:text-zinc-100">
            {t('footer.privacy')}
          </Link>
          <Link to="/terms" className="hover:text-zinc-900 dark:hover:text-zinc-100">
            {t('footer.terms')}
          </Link>
          <Link to="/tickets/create" className="hover:text-zinc-900 dark:hover:text-zinc-100">
            {t('footer.support')}
          </Link>
        </nav>
      </div>
    </footer>
  )
}
