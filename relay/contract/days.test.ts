import { describe, expect, it } from 'vitest'
import { auditQuery } from './admin.ts'
import { calendarDateSchema } from './days.ts'

describe('calendarDateSchema', () => {
  const date = calendarDateSchema('bad day')

  it('takes days that exist, leap days included', () => {
    for (const day of ['2026-01-01', '2026-12-31', '2028-02-29']) expect(date.safeParse(day).success).toBe(true)
  })

  it('refuses days that do not exist rather than rolling them over', () => {
    for (const day of ['2026-02-30', '2027-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-01', 'yesterday']) {
      const parsed = date.safeParse(day)
      expect(parsed.success, day).toBe(false)
      expect(parsed.error?.issues[0]?.message).toBe('bad day')
    }
  })

  it('is the rule of the audit query too', () => {
    expect(auditQuery.safeParse({ to: '2026-02-30' }).success).toBe(false)
    expect(auditQuery.safeParse({ to: '2026-02-28' }).success).toBe(true)
  })
})
