import { describe, expect, it } from 'vitest'
import { SnowflakeGenerator, snowflakeEpoch, snowflakeTimestamp } from './ids.ts'

describe('snowflake ids', () => {
  it('encodes time, worker and sequence, and exceeds 2^53 for current dates', () => {
    const at = Date.UTC(2025, 5, 1)
    const id = new SnowflakeGenerator(5, () => at).next()
    expect(BigInt(id)).toBe((BigInt(at - snowflakeEpoch) << 22n) | (5n << 12n))
    expect(BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
    expect(snowflakeTimestamp(id)).toBe(at)
  })

  it('stays unique and increasing within one millisecond, past the 4096-id sequence, and when time steps back', () => {
    let now = Date.UTC(2025, 0, 1)
    const ids = new SnowflakeGenerator(1, () => now)
    const minted: bigint[] = []
    for (let i = 0; i < 10_000; i++) minted.push(BigInt(ids.next()))
    now -= 1000
    for (let i = 0; i < 10; i++) minted.push(BigInt(ids.next()))
    for (let i = 1; i < minted.length; i++) expect(minted[i]! > minted[i - 1]!).toBe(true)
  })

  it('rejects a worker number outside 10 bits', () => {
    expect(() => new SnowflakeGenerator(1024)).toThrow(RangeError)
  })
})
