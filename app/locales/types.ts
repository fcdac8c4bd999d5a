/**
 * zh is the typed source of truth (docs/architecture.md §4). Every other language declares its namespace as
 * `satisfies Messages<typeof zh>`, so a key missing in en or ja fails the type check.
 */
export type Messages<T> = {
  [K in keyof T]: T[K] extends string ? string : Messages<T[K]>
}

export const languages = ['zh', 'en', 'ja'] as const
export type Language = (typeof languages)[number]
export const defaultLanguage: Language = 'zh'
export const fallbackLanguage: Language = 'en'

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value)
}
