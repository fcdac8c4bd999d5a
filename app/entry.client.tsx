import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { defaultLanguage, isLanguage } from '#app/locales/types.ts'
import { i18nOptions } from '#app/utils/i18n.ts'

// Only the page's language is downloaded: each language is its own chunk (slow networks).
const loaders = {
  zh: () => import('#app/locales/zh/index.ts'),
  en: () => import('#app/locales/en/index.ts'),
  ja: () => import('#app/locales/ja/index.ts'),
}

async function hydrate() {
  const lang = document.documentElement.lang
  const lng = isLanguage(lang) ? lang : defaultLanguage
  const { default: messages } = await loaders[lng]()
  await i18next.use(initReactI18next).init({ ...i18nOptions, lng, resources: { [lng]: messages } })
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    )
  })
}

void hydrate()
