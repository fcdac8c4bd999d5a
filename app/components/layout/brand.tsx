import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

export function Brand() {
  const { t } = useTranslation()
  return (
    <Link to="/" className="flex items-center gap-2 font-semibold tracking-tight">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="8" className="fill-indigo-600 dark:fill-indigo-500" />
        <path d="M9 20.5 14.5 9h3L23 20.5h-3.2l-1.1-2.5h-5.4l-1.1 2.5H9Zm5.4-5h3.2L16 11.9l-1.6 3.6Z" fill="white" />
      </svg>
      <span>{t('brand')}</span>
    </Link>
  )
}
