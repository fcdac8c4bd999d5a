/**
 * The points screen's usage bar (docs/decisions/023-packages-teams-codes-resets.md): the share of this package period's points
 * that were used, i.e. used ÷ (used + balance + frozen). Measured against the package limit it
 * read "0 % used" whenever refills, a reset or a grant had put the balance at or above the limit,
 * however much had been used.
 */
import { numberFormat } from './intl-formats.ts'

export interface UsageShare {
  used: number
  /** Every point of the period: used, still in the balance, or held for calls in flight. */
  total: number
  /** 0–1. */
  share: number
}

export function usageShare(points: { used_points: number; balance: number; frozen_points: number }): UsageShare {
  const used = Math.max(0, points.used_points)
  const total = used + Math.max(0, points.balance) + Math.max(0, points.frozen_points)
  return { used, total, share: total > 0 ? used / total : 0 }
}

/**
 * The share as a percentage that is never wrong at the ends: any use shows as more than 0 % and
 * anything left as less than 100 %; one decimal below 10 %.
 */
export function formatShare(share: number, locale: string): string {
  const format = (value: number, digits: number) =>
    numberFormat(locale, { style: 'percent', maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value)
  if (share <= 0) return format(0, 0)
  if (share < 0.001) return `<${format(0.001, 1)}`
  if (share < 0.1) return format(Math.round(share * 1000) / 1000, 1)
  if (share < 1) return format(Math.min(0.99, Math.round(share * 100) / 100), 0)
  return format(1, 0)
}
