import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'

/** Formats integers (points, counts) with the reader's grouping: 12,345 · 12 345 · 12.345. */
export function useNumberFormat(): (value: number) => string {
  const { i18n } = useTranslation()
  return useMemo(() => new Intl.NumberFormat(i18n.language).format, [i18n.language])
}
