import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { numberFormat } from './intl-formats.ts'

/** Formats a price kept in fen as yuan in the reader's style: ¥199.00 · CN¥199.00 · ￥199. */
export function useYuan(): (fen: number) => string {
  const { i18n } = useTranslation()
  return useMemo(() => {
    const format = numberFormat(i18n.language, { style: 'currency', currency: 'CNY' }).format
    return (fen: number) => format(fen / 100)
  }, [i18n.language])
}
