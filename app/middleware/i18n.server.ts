/**
 * Language detection (docs/architecture.md §7): `?lng=` → `lng` cookie → Accept-Language → zh.
 * remix-i18next builds one i18next instance per request from the typed locale modules.
 */
import { createCookie, type RouterContextProvider } from 'react-router'
import { initReactI18next } from 'react-i18next'
import { createI18nextMiddleware } from 'remix-i18next/middleware'
import { resources } from '#app/locales/index.ts'
import { defaultLanguage, languages } from '#app/locales/types.ts'
import { i18nOptions } from '#app/utils/i18n.ts'
import { servedOverHttps } from '#server/env.ts'

export const localeCookie = createCookie('lng', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
  secure: servedOverHttps(),
})

export const [i18nMiddleware, getLocale, getI18n] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...languages],
    fallbackLanguage: defaultLanguage,
    cookie: localeCookie,
    order: ['searchParams', 'cookie', 'header'],
  },
  i18next: { ...i18nOptions, resources },
  plugins: [initReactI18next],
})

/**
 * The request's i18next instance for rendering the document. React Router answers some requests
 * before any middleware runs (a method no route handles, such as OPTIONS; a path that cannot be
 * matched, such as one with an encoded line break) and renders the error page for them with an
 * empty context; for those the middleware is run here, so they get the same language detection.
 */
export async function i18nForDocument(request: Request, context: RouterContextProvider) {
  try {
    return getI18n(context)
  } catch {
    await i18nMiddleware({ request, context, params: {}, url: new URL(request.url), pattern: '' }, async () => new Response())
    return getI18n(context)
  }
}
