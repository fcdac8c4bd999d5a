import { useTranslation } from 'react-i18next'
import { numberFormat } from './intl-formats.ts'

/** Formats integers (points, counts) with the reader's grouping: 12,345 · 12 345 · 12.345. */
export function useNumberFormat(): (value: number) => string {
  const { i18n } = useTranslation()
  return numberFormat(i18n.language).format
}
