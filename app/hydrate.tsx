import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import type { Language } from '#app/locales/types.ts'
import { i18nOptions } from '#app/utils/i18n.ts'

/** React, the router's browser half and i18next: the JavaScript a page needs to become an app, given the page's language. */
export async function hydrate(lng: Language, messages: Record<string, object>) {
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
