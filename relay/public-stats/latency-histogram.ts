/**
 * The relay's added latency as a histogram over fixed buckets (docs/decisions/120-figures-from-hourly-aggregates.md): hours and
 * families add up by adding counts, so a median over any period comes from the hourly rows alone,
 * in bounded space, without keeping samples. The median is reported as the upper bound of the
 * bucket it falls in ("under 4 ms"), which is exact about what it claims.
 */

/** Exclusive upper bounds in ms: bucket i holds [bounds[i-1], bounds[i]); one more bucket holds the rest. */
export const latencyBounds = [
  1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1500, 2000, 3000, 5000,
] as const

export type Histogram = number[]

export function emptyHistogram(): Histogram {
  return new Array<number>(latencyBounds.length + 1).fill(0)
}

export function bucketOf(ms: number): number {
  const index = latencyBounds.findIndex((bound) => ms < bound)
  return index === -1 ? latencyBounds.length : index
}

/** Adds `other` into `into` (histograms of other lengths are a programming error). */
export function addHistogram(into: Histogram, other: readonly number[]): Histogram {
  for (let i = 0; i < into.length; i++) into[i]! += other[i] ?? 0
  return into
}

export function parseHistogram(text: string): Histogram {
  return addHistogram(emptyHistogram(), JSON.parse(text) as number[])
}

export function samplesOf(histogram: readonly number[]): number {
  return histogram.reduce((sum, n) => sum + n, 0)
}

/**
 * The bound the median is under, in ms; null without samples, and `latencyBounds`' last value
 * when the median is in the open-ended bucket (then it is at least that).
 */
export function medianBelowMs(histogram: readonly number[]): number | null {
  return percentileBelowMs(histogram, 0.5)
}

/** The bound the `fraction` percentile (0.95: p95) is under, read like the median. */
export function percentileBelowMs(histogram: readonly number[], fraction: number): number | null {
  const total = samplesOf(histogram)
  if (total === 0) return null
  let seen = 0
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!
    if (seen >= total * fraction) return latencyBounds[Math.min(i, latencyBounds.length - 1)]!
  }
  return latencyBounds[latencyBounds.length - 1]!
}
