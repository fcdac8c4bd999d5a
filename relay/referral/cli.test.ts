import { expect, it } from 'vitest'
import { defaultReferralRule, referralEndpoints } from '../contract/referral.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'

describeEachDatabase('referral CLI', (ctx) => {
  it('shows the default rule, changes single amounts, and the users see the change', async () => {
    const shown = await runOperatorCli(ctx, 'referral', 'rule', 'show')
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toEqual(defaultReferralRule)

    const set = await runOperatorCli(ctx, 'referral', 'rule', 'set', '--first-inviter-days', '7', '--later-invitee-points', '500')
    expect(set.code).toBe(0)
    const expected = {
      first: { ...defaultReferralRule.first, inviter_days: 7 },
      later: { ...defaultReferralRule.later, invitee_points: 500 },
    }
    expect(JSON.parse(set.stdout)).toEqual(expected)
    expect(JSON.parse((await runOperatorCli(ctx, 'referral', 'rule', 'show')).stdout)).toEqual(expected)

    const { login } = await ctx.signUp()
    expect((await ctx.call(referralEndpoints.stats, { token: login.access_token })).rule).toEqual(expected)
  })

  it('refuses amounts out of bounds or not numbers, and keeps the rule', async () => {
    const before = (await runOperatorCli(ctx, 'referral', 'rule', 'show')).stdout
    const negative = await runOperatorCli(ctx, 'referral', 'rule', 'set', '--first-invitee-points=-1')
    expect(negative.code).toBe(1)
    expect(negative.stderr).toContain('first.invitee_points')
    const word = await runOperatorCli(ctx, 'referral', 'rule', 'set', '--later-inviter-days', 'ten')
    expect(word.code).toBe(2)
    expect(word.stderr).toContain('--later-inviter-days')
    expect((await runOperatorCli(ctx, 'referral', 'rule', 'show')).stdout).toBe(before)
  })
})
