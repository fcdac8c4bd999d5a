import { afterEach, expect, it } from 'vitest'
import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { teamEndpoints } from '../contract/teams.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeCodes, makeTeam, quickUser, redeemFresh, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { spend } from '../points/ledger.ts'
import { createPackage } from './packages.ts'

const hour = 3_600_000

describeEachDatabase('top-up codes', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  const points = (user: PointsUser) => ctx.call(pointsEndpoints.points, { token: user.token })
  const redeeming = (user: PointsUser, code: string) => ({ token: user.token, body: { redeem_code: code } })
  const validate = (user: PointsUser, code: string) => ctx.call(subscriptionEndpoints.validateRedeemCode, redeeming(user, code))
  const redeem = (user: PointsUser, code: string) => ctx.call(subscriptionEndpoints.redeemCode, redeeming(user, code))

  async function topUpPackage(points = 5000) {
    const code = ctx.unique('TOPUP').toUpperCase()
    await createPackage(ctx.relay.db, ctx.clock.now(), { code, name: 'Top-up', kind: 'topup', points_limit: points, price: 1900 })
    return code
  }

  it('needs a package in force, and leaves the code unused when refused', async () => {
    const user = await quickUser(ctx)
    const [code] = await makeCodes(ctx, await topUpPackage())
    for (const reply of [
      await ctx.refusal(subscriptionEndpoints.validateRedeemCode, redeeming(user, code!)),
      await ctx.refusal(subscriptionEndpoints.redeemCode, redeeming(user, code!)),
    ]) {
      expect(reply.status).toBe(422)
      expect(reply.reason).toBe('topup_needs_package')
    }
    expect((await points(user)).status).toBe('none')
    // The same code works once the user holds a package.
    await redeemFresh(ctx, user)
    await redeem(user, code!)
  })

  it('adds its points to the plan in force without replacing it, past the limit, and pauses the refill until spent below it', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const before = await points(user)
    await spend(servicesOf(ctx), { userId: user.id, amount: 400, model: 'claude-sonnet-4-5' })
    const [code] = await makeCodes(ctx, await topUpPackage())

    const checked = await validate(user, code!)
    expect(checked).toMatchObject({ package: { kind: 'topup', points_limit: 5000 }, replaces_active: false, current: { package: { code: 'PERSONAL' }, remaining_points: 2000 } })

    const redeemed = await redeem(user, code!)
    expect(redeemed).toMatchObject({ package_kind: 'topup', points_gained: 5000, start_timestamp: before.start_timestamp, end_timestamp: before.end_timestamp, replaced_previous: false })
    const after = await points(user)
    expect(after).toMatchObject({ balance: 7000, points_limit: 2400, status: 'normal', start_timestamp: before.start_timestamp, end_timestamp: before.end_timestamp, package: { code: 'PERSONAL' } })
    const history = (await ctx.call(pointsEndpoints.history, { token: user.token })).items
    expect(history[0]).toMatchObject({ type: 'earned', change: 5000, balance_after: 7000, reason: 'topup' })

    // Above the limit the hourly refill adds nothing; once spent below it, it resumes.
    ctx.clock.advance(3 * hour)
    expect((await points(user)).balance).toBe(7000)
    await spend(servicesOf(ctx), { userId: user.id, amount: 4700, model: 'claude-sonnet-4-5' })
    ctx.clock.advance(hour)
    expect((await points(user)).balance).toBe(2400)
  })

  it('is refused to team members, whose points are the team pool', async () => {
    const owner = await quickUser(ctx)
    const member = await quickUser(ctx)
    const teamCode = await makeTeam(ctx, owner)
    await ctx.call(teamEndpoints.join, { token: member.token, body: { team_code: teamCode } })
    const [code] = await makeCodes(ctx, await topUpPackage())
    const reply = await ctx.refusal(subscriptionEndpoints.redeemCode, redeeming(member, code!))
    expect(reply.reason).toBe('redeem_in_team')
  })

  it('credits one of 100 parallel redemptions of one code', async () => {
    const users = await Promise.all(Array.from({ length: 100 }, () => quickUser(ctx)))
    for (const user of users) await redeemFresh(ctx, user)
    const [code] = await makeCodes(ctx, await topUpPackage(777))
    const replies = await Promise.all(users.map((user) => ctx.outcome(subscriptionEndpoints.redeemCode, redeeming(user, code!))))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(new Set(replies.filter((r) => r.status !== 200).map((r) => r.error?.reason))).toEqual(new Set(['redeem_code_invalid']))
    const credited = await ctx.relay.db.selectFrom('points_ledger').select('user_id').where('reason', '=', 'topup').where('user_id', 'in', users.map((u) => u.id)).execute()
    expect(credited).toHaveLength(1)
    const winner = users[replies.findIndex((r) => r.status === 200)]!
    expect(credited[0]!.user_id).toBe(winner.id)
    expect((await points(winner)).balance).toBe(2400 + 777)
  })
})
