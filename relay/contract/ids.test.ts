import { describe, expect, it } from 'vitest'
import { idInputSchema, isId } from './ids.ts'
import { parseTeamCode } from './teams.ts'
import { usageCursorPattern } from './usage.ts'

describe('the id rule', () => {
  it('takes every 64-bit id and nothing past BIGINT', () => {
    expect(isId('1')).toBe(true)
    expect(isId('9223372036854775807')).toBe(true)
    expect(isId('9223372036854775808')).toBe(false)
    expect(isId('12345678901234567890')).toBe(false)
    expect(isId('')).toBe(false)
    expect(isId('-1')).toBe(false)
    expect(isId('1e3')).toBe(false)
    expect(idInputSchema.safeParse('99999999999999999999').success).toBe(false)
  })

  it('is the one the patterns embedding an id use', () => {
    expect(parseTeamCode(btoa('9223372036854775807:abcdefgh'))).toEqual({ teamId: '9223372036854775807', secret: 'abcdefgh' })
    expect(parseTeamCode(btoa('12345678901234567890:abcdefgh'))).toBeNull()
    expect(usageCursorPattern.test('1700000000000_9223372036854775807')).toBe(true)
    expect(usageCursorPattern.test('1700000000000_12345678901234567890')).toBe(false)
  })
})
