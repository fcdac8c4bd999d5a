import { afterEach, describe, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { teamEndpoints } from '../contract/teams.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeTeam, quickUser, redeemFresh, servicesOf } from '../../tests/fixtures/points.ts'
import { createPackage } from '../subscriptions/packages.ts'
import { spend } from './ledger.ts'
import { runsOutAt } from './forecast.ts'

const hour = 3_600_000

describe('runsOutAt', () => {
  const base = { balance: 1800, hourPoints: 100, end: 1000 * hour, now: 0 }

  it('divides the balance by the pace less the refill', () => {
    expect(runsOutAt({ ...base, hourlyUse: 600 })).toBe(3.6 * hour)
    expect(runsOutAt({ ...base, balance: 0, hourlyUse: 600 })).toBe(0)
  })

  it('says nothing when the refill keeps up, or the package ends first', () => {
    expect(runsOutAt({ ...base, hourlyUse: 100 })).toBeNull()
    expect(runsOutAt({ ...base, hourlyUse: 0 })).toBeNull()
    expect(runsOutAt({ ...base, hourlyUse: 600, end: 3 * hour })).toBeNull()
  })
})

describeEachDatabase('points forecast', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  const summary = (token: string) => ctx.call(pointsEndpoints.points, { token })

  async function packageCode() {
    const code = ctx.unique('PACE').toUpperCase()
    await createPackage(ctx.relay.db, ctx.clock.now(), { code, name: 'Pace', kind: 'personal', points_limit: 2400, hour_points: 100, validity_days: 30 })
    return code
  }

  it('reads the last hour of use, on the points summary and the status line alike', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user, await packageCode())
    const start = ctx.clock.now()
    // Idle: nothing falls, and the balance is full, so the next refill adds nothing.
    expect((await summary(user.token)).forecast).toEqual({ hourly_use: 0, runs_out_timestamp: null, next_refill_points: 0 })

    await spend(servicesOf(ctx), { userId: user.id, amount: 200, model: 'claude-sonnet-4-5' })
    ctx.clock.advance(30 * 60_000)
    await spend(servicesOf(ctx), { userId: user.id, amount: 400, model: 'claude-sonnet-4-5' })
    const now = ctx.clock.now()
    // 600 an hour less 100 refilled: the remaining 1800 last 3.6 hours.
    expect((await summary(user.token)).forecast).toEqual({ hourly_use: 600, runs_out_timestamp: now + 3.6 * hour, next_refill_points: 100 })

    const created = await ctx.call(apiKeyEndpoints.create, { token: user.token, body: { name: 'status line' } })
    const usage = await ctx.call(apiKeyEndpoints.usage, { headers: { 'x-api-key': created.key } })
    expect(usage.points?.forecast).toEqual({ hourly_use: 600, runs_out_timestamp: now + 3.6 * hour, next_refill_points: 100 })

    // An hour after the first spend only the second counts; the refill has come meanwhile.
    ctx.clock.advance(start + hour + 1 - ctx.clock.now())
    const later = await summary(user.token)
    expect(later.balance).toBe(1900)
    expect(later.forecast).toEqual({ hourly_use: 400, runs_out_timestamp: ctx.clock.now() + Math.floor((1900 / 300) * hour), next_refill_points: 100 })
  })

  it("counts every member's use of a team's pool", async () => {
    const owner = await quickUser(ctx)
    const member = await quickUser(ctx)
    const teamCode = await makeTeam(ctx, owner)
    // The owner is in the team from its creation; the member joins with its code.
    await ctx.call(teamEndpoints.join, { token: member.token, body: { team_code: teamCode } })
    await spend(servicesOf(ctx), { userId: owner.id, amount: 300, model: 'claude-sonnet-4-5' })
    await spend(servicesOf(ctx), { userId: member.id, amount: 500, model: 'claude-sonnet-4-5' })
    for (const user of [owner, member]) expect((await summary(user.token)).forecast.hourly_use).toBe(800)
  })
})
