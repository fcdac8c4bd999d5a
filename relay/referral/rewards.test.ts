import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { defaultReferralRule, referralEndpoints } from '../contract/referral.ts'
import { dayMs } from '../contract/days.ts'
import { createPackage } from '../subscriptions/packages.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeCodes } from '../../tests/fixtures/points.ts'
import { writeReferralRule } from './rule.ts'
import { referralPointsReason } from './rewards.ts'

/** PERSONAL is the paid package migration 0003 ships; FREE is made here (price 0). */
const paid = 'PERSONAL'

describeEachDatabase('referral rewards', (ctx) => {
  let free: string

  const redeem = async (token: string, packageCode: string, code?: string) => {
    const redeemCode = code ?? (await makeCodes(ctx, packageCode))[0]!
    const reply = await ctx.outcome(subscriptionEndpoints.redeemCode, { token, body: { redeem_code: redeemCode } })
    return reply.status === 200 ? 'ok' : reply.error?.reason
  }
  const stats = (token: string) => ctx.call(referralEndpoints.stats, { token })
  const rewardGrants = (userId: string) =>
    ctx.relay.db
      .selectFrom('points_ledger')
      .select(['change', 'type'])
      .where('user_id', '=', userId)
      .where('reason', '=', referralPointsReason)
      .orderBy('id')
      .execute()

  /** An inviter holding a free package (so grants have an account to land in) and their invitee. */
  const pair = async () => {
    const inviter = await ctx.signUp()
    expect(await redeem(inviter.login.access_token, free)).toBe('ok')
    const invitee = await ctx.signUp({ invite_code: inviter.login.user.invite_code })
    return { inviter, invitee }
  }

  it('sets up a free package', async () => {
    free = (await createPackage(ctx.relay.db, ctx.clock.now(), { code: `FREE${ctx.unique('').toUpperCase()}`, name: 'Free', kind: 'personal', points_limit: 1000 })).code
  })

  it('pays the first-purchase reward exactly once when one code is redeemed 50 times in parallel', async () => {
    const { inviter, invitee } = await pair()
    const rival = await ctx.signUp({ invite_code: inviter.login.user.invite_code })
    const [contested] = await makeCodes(ctx, paid)
    // Two invitees race for one code, 25 attempts each (within the per-user redeem limit).
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem((i % 2 ? invitee : rival).login.access_token, paid, contested)),
    )
    expect(replies.filter((r) => r === 'ok')).toHaveLength(1)
    expect(replies.filter((r) => r !== 'ok')).toEqual(Array(49).fill('redeem_code_invalid'))

    const first = defaultReferralRule.first
    expect(await rewardGrants(inviter.login.user.id)).toEqual([{ type: 'earned', change: first.inviter_points }])
    const rewards = await ctx.relay.db.selectFrom('referral_rewards').selectAll().where('inviter_id', '=', inviter.login.user.id).execute()
    expect(rewards).toHaveLength(1)
    const winnerId = rewards[0]!.invitee_id
    expect(rewards[0]).toMatchObject({ kind: 'first', inviter_points: first.inviter_points, invitee_points: first.invitee_points })
    expect(await rewardGrants(winnerId)).toEqual([{ type: 'earned', change: first.invitee_points }])

    expect(await stats(inviter.login.access_token)).toMatchObject({
      total_invites: 2,
      valid_invites: 1,
      cumulative_reward_points: first.inviter_points,
      cumulative_reward_days: 0,
    })
    const records = (await ctx.call(referralEndpoints.records, { token: inviter.login.access_token })).items
    const expected = (id: string) => [id, id === winnerId ? 'rewarded' : 'pending', id === winnerId ? first.inviter_points : 0]
    expect(records.map((r) => [r.id, r.status, r.reward_points]).sort()).toEqual(
      [expected(invitee.login.user.id), expected(rival.login.user.id)].sort(),
    )
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('pays the later-purchase reward on each further paid redemption, nothing for a free one', async () => {
    const { inviter, invitee } = await pair()
    const token = invitee.login.access_token
    expect(await redeem(token, paid)).toBe('ok')
    expect(await redeem(token, paid)).toBe('ok')
    expect(await redeem(token, free)).toBe('ok')
    expect(await redeem(token, paid)).toBe('ok')

    const { first, later } = defaultReferralRule
    expect((await rewardGrants(inviter.login.user.id)).map((g) => g.change)).toEqual([first.inviter_points, later.inviter_points, later.inviter_points])
    expect((await rewardGrants(invitee.login.user.id)).map((g) => g.change)).toEqual([first.invitee_points, later.invitee_points, later.invitee_points])
    expect(await stats(inviter.login.access_token)).toMatchObject({
      valid_invites: 1,
      cumulative_reward_points: first.inviter_points + 2 * later.inviter_points,
    })
    // The invitee earned as an invitee, not as an inviter.
    expect(await stats(token)).toMatchObject({ total_invites: 0, valid_invites: 0, cumulative_reward_points: 0 })
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('pays nothing for the paid redemption of someone nobody invited', async () => {
    const loner = await ctx.signUp()
    expect(await redeem(loner.login.access_token, paid)).toBe('ok')
    expect(await rewardGrants(loner.login.user.id)).toEqual([])
    expect(await ctx.relay.db.selectFrom('referral_rewards').select('id').where('invitee_id', '=', loner.login.user.id).execute()).toEqual([])
  })

  it('refuses one\'s own invite code through another address of one\'s mailbox, and never pays between one mailbox', async () => {
    const inviter = await ctx.signUp()
    const [local, domain] = inviter.email.split('@')
    const alias = await ctx.refusal(accountEndpoints.register, {
      body: { username: ctx.unique('alias'), email: `${local}+1@${domain}`, password: 'a long password 1', code: '000000', invite_code: inviter.login.user.invite_code },
      ip: ctx.uniqueIp(),
    })
    expect(alias.reason).toBe('invite_code_invalid')

    // An invitee who later takes an address of the inviter's mailbox.
    const { inviter: owner, invitee } = await pair()
    await ctx.relay.db.updateTable('users').set({ email: owner.email.replace('@', '+later@') }).where('id', '=', invitee.login.user.id).execute()
    expect(await redeem(invitee.login.access_token, paid)).toBe('ok')
    expect(await rewardGrants(owner.login.user.id)).toEqual([])
    expect(await rewardGrants(invitee.login.user.id)).toEqual([])
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('follows the configured rule: membership days extend both personal subscriptions', async () => {
    const rule = {
      first: { inviter_points: 0, invitee_points: 700, inviter_days: 7, invitee_days: 3 },
      later: { inviter_points: 100, invitee_points: 0, inviter_days: 1, invitee_days: 0 },
    }
    await writeReferralRule(ctx.relay.db, ctx.clock, rule)
    try {
      const { inviter, invitee } = await pair()
      const end = async (token: string) => (await ctx.call(pointsEndpoints.points, { token })).end_timestamp!
      const inviterEnd = await end(inviter.login.access_token)
      expect(await redeem(invitee.login.access_token, paid)).toBe('ok')
      const inviteeStart = ctx.clock.now()

      expect(await end(inviter.login.access_token)).toBe(inviterEnd + 7 * dayMs)
      expect(await end(invitee.login.access_token)).toBe(inviteeStart + (30 + 3) * dayMs)
      expect(await rewardGrants(inviter.login.user.id)).toEqual([])
      expect(await rewardGrants(invitee.login.user.id)).toEqual([{ type: 'earned', change: 700 }])
      expect(await stats(inviter.login.access_token)).toMatchObject({ cumulative_reward_days: 7, cumulative_reward_points: 0, rule })

      expect(await redeem(invitee.login.access_token, paid)).toBe('ok')
      expect(await stats(inviter.login.access_token)).toMatchObject({ cumulative_reward_days: 8, cumulative_reward_points: 100 })
      await expectLedgerInvariants(ctx.relay.db)
    } finally {
      await writeReferralRule(ctx.relay.db, ctx.clock, defaultReferralRule)
    }
  })

  it('records what was really paid when the inviter holds no package', async () => {
    const inviter = await ctx.signUp()
    const invitee = await ctx.signUp({ invite_code: inviter.login.user.invite_code })
    expect(await redeem(invitee.login.access_token, paid)).toBe('ok')
    expect(await stats(inviter.login.access_token)).toMatchObject({ valid_invites: 1, cumulative_reward_points: 0 })
    expect(await rewardGrants(invitee.login.user.id)).toEqual([{ type: 'earned', change: defaultReferralRule.first.invitee_points }])
    await expectLedgerInvariants(ctx.relay.db)
  })
})
