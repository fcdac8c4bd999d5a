import { describe, expect, it } from 'vitest'
import { modelFamily } from './families.ts'
import { addHistogram, bucketOf, emptyHistogram, latencyBounds, medianBelowMs } from './latency-histogram.ts'

describe('relay latency histogram', () => {
  it('puts a sample in the bucket under the first bound above it', () => {
    expect(bucketOf(0)).toBe(0)
    expect(bucketOf(1)).toBe(1)
    expect(bucketOf(4.9)).toBe(4)
    expect(bucketOf(999_999)).toBe(latencyBounds.length)
  })

  it('reports the bound the median is under, across merged hours', () => {
    const a = emptyHistogram()
    const b = emptyHistogram()
    for (const ms of [0, 0, 1]) a[bucketOf(ms)]! += 1
    for (const ms of [7, 9]) b[bucketOf(ms)]! += 1
    // Samples 0, 0, 1, 7, 9: the median, 1, is under 2 ms.
    expect(medianBelowMs(addHistogram(a, b))).toBe(2)
    expect(medianBelowMs(emptyHistogram())).toBeNull()
  })
})

describe('model families', () => {
  it('groups versions and dates under one name', () => {
    expect(modelFamily('claude-sonnet-4-5-20250929')).toBe('claude-sonnet')
    expect(modelFamily('claude-3-5-haiku-20241022')).toBe('claude-haiku')
    expect(modelFamily('gemini-3.1-pro-preview')).toBe('gemini-pro')
    expect(modelFamily('gemini-3.5-flash-lite')).toBe('gemini-flash-lite')
    expect(modelFamily('gemini-2.5-flash')).toBe('gemini-flash')
    expect(modelFamily('Claude-Opus-5-5')).toBe('claude-opus')
    expect(modelFamily('gpt-4o-mini-2024-07-18')).toBe('gpt-4o-mini')
  })
})
