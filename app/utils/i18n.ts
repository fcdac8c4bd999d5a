/** i18next options shared by the server middleware and the browser entry. */
import type { InitOptions } from 'i18next'
import { defaultLanguage, fallbackLanguage, languages } from '#app/locales/types.ts'

export const i18nOptions = {
  supportedLngs: [...languages],
  fallbackLng: fallbackLanguage,
  defaultNS: 'common',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
} satisfies InitOptions

export { defaultLanguage, languages }
