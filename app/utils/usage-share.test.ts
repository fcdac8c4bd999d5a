import { describe, expect, it } from 'vitest'
import { formatShare, usageShare } from './usage-share.ts'

describe('usage share', () => {
  it('counts use against every point of the period, so a balance above the limit still shows use', () => {
    // 16 used while refills and a grant put the balance at 14,984 over a 5,000 limit.
    expect(usageShare({ used_points: 16, balance: 14_984, frozen_points: 0 })).toEqual({ used: 16, total: 15_000, share: 16 / 15_000 })
    expect(usageShare({ used_points: 0, balance: 0, frozen_points: 0 }).share).toBe(0)
    expect(usageShare({ used_points: 600, balance: 300, frozen_points: 100 }).share).toBe(0.6)
  })

  it('never shows 0 % for some use nor 100 % with points left', () => {
    expect(formatShare(0, 'en')).toBe('0%')
    expect(formatShare(16 / 15_000, 'en')).toBe('0.1%')
    expect(formatShare(1 / 100_000, 'en')).toBe('<0.1%')
    expect(formatShare(0.0449, 'zh')).toBe('4.5%')
    expect(formatShare(0.6, 'ja')).toBe('60%')
    expect(formatShare(0.999, 'en')).toBe('99%')
    expect(formatShare(1, 'en')).toBe('100%')
  })
})
