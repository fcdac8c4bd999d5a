import { describe, expect, it } from 'vitest'
import { redeemCodeSchema } from './subscriptions.ts'

describe('redeemCodeSchema', () => {
  it('ignores case, spaces and hyphens people paste along', () => {
    expect(redeemCodeSchema.parse(' abcd-efgh-2345 ')).toBe('ABCDEFGH2345')
    expect(redeemCodeSchema.safeParse('ab*cd').success).toBe(false)
    expect(redeemCodeSchema.safeParse('').success).toBe(false)
  })
})
