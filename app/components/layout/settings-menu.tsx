/**
 * Language and theme (docs/product.md settings area). Each choice is a submit button of a real form that
 * POSTs to a resource route, which sets a cookie and redirects back: it works without
 * JavaScript. A language change reloads the document so the new language's strings load.
 */
import { Globe } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, useLocation, useRouteLoaderData } from 'react-router'
import { cn } from '#app/components/ui/cn.ts'
import { languages } from '#app/locales/types.ts'
import { themes } from '#app/utils/theme.ts'

const languageNames = { zh: '中文', en: 'English', ja: '日本語' } as const

function optionClass(active: boolean) {
  return cn(
    'rounded-md px-2.5 py-1.5 text-left text-sm transition-colors',
    active
      ? 'bg-indigo-50 font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300'
      : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
  )
}

export function SettingsMenu({ align = 'right' }: { align?: 'left' | 'right' }) {
  const { t } = useTranslation()
  const location = useLocation()
  const root = useRouteLoaderData('root') as { locale?: string; theme?: string } | undefined
  const back = `${location.pathname}${location.search}`
  return (
    <details className="group relative">
      <summary
        className="flex cursor-pointer list-none items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden"
        data-testid="settings"
      >
        <Globe className="size-4" />
        {/* Phones show the globe alone: the header has no room for the word. */}
        <span className="sr-only sm:not-sr-only">{t('settings.title')}</span>
      </summary>
      <div
        className={cn(
          'absolute z-40 mt-2 w-56 space-y-3 rounded-xl border border-zinc-200 bg-white p-3 shadow-lg dark:border-zinc-800 dark:bg-zinc-900',
          align === 'right' ? 'right-0' : 'left-0',
        )}
      >
        <Form method="post" action="/resources/locale" reloadDocument className="space-y-1">
          <p className="px-1 text-xs font-medium text-zinc-500 dark:text-zinc-400">{t('settings.language')}</p>
          <input type="hidden" name="redirectTo" value={back} />
          <div className="grid">
            {languages.map((lng) => (
              <button key={lng} type="submit" name="lng" value={lng} lang={lng} className={optionClass(root?.locale === lng)}>
                {languageNames[lng]}
              </button>
            ))}
          </div>
        </Form>
        <Form method="post" action="/resources/theme" className="space-y-1">
          <p className="px-1 text-xs font-medium text-zinc-500 dark:text-zinc-400">{t('settings.theme')}</p>
          <input type="hidden" name="redirectTo" value={back} />
          <div className="grid">
            {themes.map((theme) => (
              <button key={theme} type="submit" name="theme" value={theme} className={optionClass(root?.theme === theme)}>
                {t(`settings.themes.${theme}`)}
              </button>
            ))}
          </div>
        </Form>
      </div>
    </details>
  )
}
