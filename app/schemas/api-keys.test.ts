import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { apiKeyLimitsFormSchema, dateOfExpiry, expiryOfDate, limitsBody } from './api-keys.ts'

function parse(fields: Record<string, string>) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return parseWithZod(form, { schema: apiKeyLimitsFormSchema })
}

describe('API key limits form', () => {
  it('turns blanks into no limit and an unchecked box into a disabled key', () => {
    const submission = parse({ id: '42', pointsQuota: '', rpmLimit: '', allowedModels: '  ' })
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(limitsBody(submission.value)).toEqual({
      enabled: false,
      expires_timestamp: null,
      points_quota: null,
      daily_points_quota: null,
      allowed_models: null,
      rpm_limit: null,
      concurrency_limit: null,
      allowed_ips: null,
    })
  })

  it('reads numbers, patterns and the last day of validity', () => {
    const submission = parse({ id: '42', enabled: 'on', expires: '2026-12-31', dailyPointsQuota: '500', concurrencyLimit: '3', allowedModels: 'claude-sonnet-*, claude-haiku-*\nclaude-opus-5' })
    if (submission.status !== 'success') throw new Error('refused')
    const body = limitsBody(submission.value)
    expect(body).toMatchObject({ enabled: true, daily_points_quota: 500, concurrency_limit: 3, allowed_models: ['claude-sonnet-*', 'claude-haiku-*', 'claude-opus-5'] })
    // Through 31 December in UTC+8: until 1 January 00:00 there, 31 December 16:00 UTC.
    expect(body.expires_timestamp).toBe(Date.parse('2026-12-31T16:00:00Z'))
    expect(dateOfExpiry(expiryOfDate('2026-12-31'))).toBe('2026-12-31')
  })

  it('reads the addresses a key may be used from, and names a bad one', () => {
    const accepted = parse({ id: '42', allowedIps: '203.0.113.0/24\n198.51.100.7, 2001:db8::/32' })
    if (accepted.status !== 'success') throw new Error('refused')
    expect(limitsBody(accepted.value).allowed_ips).toEqual(['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'])
    const refused = parse({ id: '42', allowedIps: '203.0.113.0/24 office' })
    if (refused.status !== 'error') throw new Error('accepted')
    expect(refused.error).toEqual({ allowedIps: ['apiKeys:limits.errors.network'] })
  })

  it('names each bad field with a translation key', () => {
    const submission = parse({ id: '42', rpmLimit: '0', concurrencyLimit: '1.5', pointsQuota: 'many', allowedModels: 'bad model!' })
    if (submission.status !== 'error') throw new Error('accepted')
    expect(submission.error).toEqual({
      rpmLimit: ['validation:numberTooSmall'],
      concurrencyLimit: ['validation:wholeNumber'],
      pointsQuota: ['validation:number'],
      allowedModels: ['apiKeys:limits.errors.pattern'],
    })
  })

  it('refuses a day that does not exist instead of rolling it into the next month', () => {
    for (const expires of ['2026-02-30', '2026-13-01', '2026-04-31', '2026-00-10']) {
      const submission = parse({ id: '42', expires })
      if (submission.status !== 'error') throw new Error(`accepted ${expires}`)
      expect(submission.error).toEqual({ expires: ['apiKeys:limits.errors.date'] })
    }
    expect(parse({ id: '42', expires: '2028-02-29' }).status).toBe('success')
  })
})
