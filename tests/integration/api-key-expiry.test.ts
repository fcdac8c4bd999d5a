/**
 * The last day of an API key, set on the keys page without JavaScript: a day that has passed and
 * a day that does not exist are refused with a message beside the field, and the typed date stays;
 * today is accepted.
 * A quota left blank reads as no limit.
 */
import { beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../../relay/contract/api-keys.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { dateOf } from '../../app/utils/utc8-days.ts'
import { textOf } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
const { signedIn } = portalOverRelay(() => target!)

describeEachDatabase('API key last day', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  it('refuses a past day and an impossible one, keeping what was typed', async () => {
    const account = await ctx.signUp()
    const created = await ctx.call(apiKeyEndpoints.create, { token: account.login.access_token, body: { name: 'expiring' } })
    const id = String(created.id)
    const visitor = await signedIn(account)
    const setExpiry = (expires: string) => visitor.submit('/api-keys', { intent: 'limits', id, enabled: 'on', expires })

    // The relay's clock decides what has passed; the portal's day is UTC+8.
    const yesterday = dateOf(ctx.clock.now() - 86_400_000)
    const past = await setExpiry(yesterday)
    expect(past.status).toBe(422)
    const pastPage = await past.text()
    expect(pastPage).toContain('最后可用日期不能早于今天')
    expect(pastPage).toContain(`value="${yesterday}"`)
    // A quota not set reads as unlimited, with no 0 that could pass for a limit of 0.
    expect(textOf(pastPage, 'use-total')).toBe('总积分额度 不限')

    const impossible = await setExpiry('2026-02-30')
    expect(impossible.status).toBe(400)
    const impossiblePage = await impossible.text()
    expect(impossiblePage).toContain('请选择有效的日期')
    expect(impossiblePage).toContain('value="2026-02-30"')

    const keys = await ctx.call(apiKeyEndpoints.list, { token: account.login.access_token })
    expect(keys.items[0]!.limits.expires_timestamp).toBeNull()
    // Today (UTC+8) is the last day allowed: the key works until midnight.
    expect((await setExpiry(dateOf(ctx.clock.now()))).status).toBe(302)
    const later = dateOf(ctx.clock.now() + 30 * 86_400_000)
    expect((await setExpiry(later)).status).toBe(302)
  }, 60_000)
})
