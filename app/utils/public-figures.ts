/** How the public figures read (Home, /status): one rounding rule, so every page shows the same number. */
import { numberFormat } from './intl-formats.ts'

/** Percent of calls that did not fail, rounded down to two decimals (never flattering); null without calls. */
export function availabilityPercent(calls: number, failures: number): number | null {
  if (calls === 0) return null
  return Math.floor(((calls - failures) / calls) * 10_000) / 100
}

export function formatPercent(percent: number, language: string): string {
  return `${numberFormat(language, { maximumFractionDigits: 2 }).format(percent)}%`
}

/** A wait in the largest unit that reads naturally: minutes under an hour, hours under two days, else days. */
export function formatWait(ms: number, language: string): string {
  const [unit, value] =
    ms < 3_600_000
      ? (['minute', Math.max(1, Math.round(ms / 60_000))] as const)
      : ms < 48 * 3_600_000
        ? (['hour', ms / 3_600_000] as const)
        : (['day', ms / 86_400_000] as const)
  return numberFormat(language, {
    style: 'unit',
    unit,
    unitDisplay: 'long',
    maximumFractionDigits: 1,
  }).format(value)
}
