/**
 * The languages the relay writes its own texts in (package names and descriptions, the titles of
 * the tickets it opens): the portal's languages. Each answer is in the request's language, taken
 * from Accept-Language (the portal always sends the reader's); Chinese when none of these is
 * asked for (docs/decisions/006-texts-and-languages.md).
 */
export const contentLanguages = ['zh', 'en', 'ja'] as const
export type ContentLanguage = (typeof contentLanguages)[number]
export const defaultContentLanguage: ContentLanguage = 'zh'

/** One text in every language. */
export type PerLanguage<T = string> = Record<ContentLanguage, T>
