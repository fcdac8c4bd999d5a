import { accountEndpoints } from '../contract/accounts.ts'
import { expect, it } from 'vitest'
import { defaultReferralRule, referralEndpoints } from '../contract/referral.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { maskUsername } from './service.ts'
import { writeReferralRule } from './rule.ts'

describeEachDatabase('referral', (ctx) => {
  const stats = (token: string) => ctx.call(referralEndpoints.stats, { token })
  const records = (token: string, query?: { page?: number; pageSize?: number }) => ctx.call(referralEndpoints.records, { token, query })

  it('counts invitees bound at registration, all pending before a paid purchase', async () => {
    const inviter = await ctx.signUp()
    const first = await ctx.signUp({ invite_code: inviter.login.user.invite_code })
    ctx.clock.advance(1000)
    const second = await ctx.signUp({ invite_code: inviter.login.user.invite_code })
    await ctx.signUp() // someone else's registration is not counted

    expect(await stats(inviter.login.access_token)).toEqual({
      total_invites: 2,
      valid_invites: 0,
      cumulative_reward_days: 0,
      cumulative_reward_points: 0,
      invite_code: inviter.login.user.invite_code,
      rule: defaultReferralRule,
    })
    const list = await records(inviter.login.access_token)
    expect(list).toEqual({
      items: [second, first].map((invitee) => ({
        id: invitee.login.user.id,
        username: maskUsername(invitee.username),
        create_timestamp: invitee.login.user.create_timestamp,
        reward_days: 0,
        reward_points: 0,
        status: 'pending',
      })),
      total: 2,
      page: 1,
      pageSize: 10,
    })
    // The invitees' full names never reach the inviter.
    expect(JSON.stringify(list)).not.toContain(first.username)
  })

  it('pages the records', async () => {
    const inviter = await ctx.signUp()
    for (let i = 0; i < 3; i++) {
      await ctx.signUp({ invite_code: inviter.login.user.invite_code })
      ctx.clock.advance(1000)
    }
    const page2 = await records(inviter.login.access_token, { page: 2, pageSize: 2 })
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 })
    expect(page2.items).toHaveLength(1)
    expect((await ctx.refusal(referralEndpoints.records, { token: inviter.login.access_token, query: { pageSize: 101 } })).status).toBe(400)
  })

  it('binds permanently: the profile call cannot rebind, and nobody is their own inviter', async () => {
    const inviter = await ctx.signUp()
    const other = await ctx.signUp()
    const invitee = await ctx.signUp({ invite_code: inviter.login.user.invite_code })
    // A crafted body: fields the call does not declare are dropped. (Raw: the typed call cannot send them.)
    const update = await ctx.request('PUT', accountEndpoints.profile.path, {
      token: invitee.login.access_token,
      body: { name: 'x', invited_by: other.login.user.id, invite_code: other.login.user.invite_code },
    })
    expect(update.status).toBe(200)
    const info = await ctx.call(accountEndpoints.info, { token: invitee.login.access_token })
    expect(info.user.invited_by).toBe(inviter.login.user.id)
    expect((await stats(other.login.access_token)).total_invites).toBe(0)

    // A code binds only at registration, to an account that already exists: never the new one.
    const selfInvited = await ctx.relay.db
      .selectFrom('users')
      .select('id')
      .whereRef('invited_by', '=', 'id')
      .execute()
    expect(selfInvited).toEqual([])
  })

  it('shows the configured rule', async () => {
    const user = await ctx.signUp()
    const rule = {
      first: { inviter_points: 500, invitee_points: 300, inviter_days: 7, invitee_days: 3 },
      later: { inviter_points: 100, invitee_points: 0, inviter_days: 1, invitee_days: 0 },
    }
    await writeReferralRule(ctx.relay.db, ctx.clock, rule)
    try {
      expect((await stats(user.login.access_token)).rule).toEqual(rule)
    } finally {
      await writeReferralRule(ctx.relay.db, ctx.clock, defaultReferralRule)
    }
  })

  it('requires a login', async () => {
    expect((await ctx.refusal(referralEndpoints.stats)).status).toBe(401)
    expect((await ctx.refusal(referralEndpoints.records)).status).toBe(401)
  })
})

it('masks usernames keeping two characters at each end, one for short names', () => {
  expect(maskUsername('alice_w')).toBe('al***_w')
  expect(maskUsername('bob')).toBe('b***b')
  expect(maskUsername('abcd')).toBe('a***d')
  expect(maskUsername('abcde')).toBe('ab***de')
})
