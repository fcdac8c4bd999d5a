import { describe, expect, it } from 'vitest'
import { instantInZone, isTimeZone, offsetName } from './zoned-time.ts'

describe('instantInZone', () => {
  it('reads a wall-clock time in the named zone', () => {
    expect(instantInZone('2026-11-28T18:30', 'UTC')).toBe(Date.parse('2026-11-28T18:30:00Z'))
    expect(instantInZone('2026-11-28T18:30', 'Asia/Shanghai')).toBe(Date.parse('2026-11-28T10:30:00Z'))
    expect(instantInZone('2026-11-28T18:30', 'America/New_York')).toBe(Date.parse('2026-11-28T23:30:00Z'))
    expect(instantInZone('2026-07-01T09:00', 'Asia/Kolkata')).toBe(Date.parse('2026-07-01T03:30:00Z'))
  })

  it('takes the offset in force at that time, on either side of a daylight-saving change', () => {
    // Berlin moves from UTC+1 to UTC+2 at 02:00 on 29 March 2026.
    expect(instantInZone('2026-03-29T01:30', 'Europe/Berlin')).toBe(Date.parse('2026-03-29T00:30:00Z'))
    expect(instantInZone('2026-03-29T03:30', 'Europe/Berlin')).toBe(Date.parse('2026-03-29T01:30:00Z'))
    expect(instantInZone('2026-10-25T12:00', 'Europe/Berlin')).toBe(Date.parse('2026-10-25T11:00:00Z'))
  })

  it('names the offset in force', () => {
    expect(offsetName('Asia/Shanghai', Date.parse('2026-11-28T00:00:00Z'))).toBe('GMT+8')
    expect(offsetName('Europe/Berlin', Date.parse('2026-07-01T00:00:00Z'))).toBe('GMT+2')
    // ICU versions differ on naming no offset at all.
    expect(offsetName('UTC', 0)).toMatch(/^GMT(\+0)?$/)
  })

  it('knows a zone name from anything else', () => {
    expect(isTimeZone('Asia/Tokyo')).toBe(true)
    expect(isTimeZone('UTC')).toBe(true)
    expect(isTimeZone('Mars/Olympus')).toBe(false)
    expect(isTimeZone('')).toBe(false)
  })
})
