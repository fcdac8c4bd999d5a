import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { dayOf, dayStart } from '../contract/days.ts'
import { teamEndpoints, type MemberCaps } from '../contract/teams.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeTeam, quickUser, type PointsUser } from '../../tests/fixtures/points.ts'
import { addTestProvider, callRelay, callsAtOnce, expectRefusedUntilTomorrow, priceModel, settled } from '../../tests/fixtures/proxy.ts'

const hour = 3_600_000
const noCaps: MemberCaps = { hourly_points_cap: null, daily_points_cap: null }

describeEachDatabase('team member caps', (ctx) => {
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['*'] })
    await priceModel(ctx, { model: 'ten-points', kind: 'fixed', points_per_call: 10 })
    await priceModel(ctx, { model: 'one-point', kind: 'fixed', points_per_call: 1 })
  })
  afterEach(async () => {
    provider.reset()
    await expectLedgerInvariants(ctx.relay.db)
  })
  afterAll(() => provider?.close())

  type Member = PointsUser & { key: string }

  /** An owner and one member of a fresh team on the seeded TEAM package, each with an API key. */
  async function team(): Promise<{ owner: Member; member: Member }> {
    const [owner, member] = [await quickUser(ctx), await quickUser(ctx)]
    const code = await makeTeam(ctx, owner)
    await ctx.call(teamEndpoints.join, { token: member.token, body: { team_code: code } })
    const withKey = async (user: PointsUser): Promise<Member> => ({
      ...user,
      key: (await ctx.call(apiKeyEndpoints.create, { token: user.token, body: { name: 'cli' } })).key,
    })
    return { owner: await withKey(owner), member: await withKey(member) }
  }
  const capping = (by: PointsUser, memberId: string, caps: Partial<MemberCaps>) => ({ params: { id: memberId }, token: by.token, body: { ...noCaps, ...caps } })
  const setCaps = (by: PointsUser, memberId: string, caps: Partial<MemberCaps>) => ctx.call(teamEndpoints.setMemberCaps, capping(by, memberId, caps))
  const capsRefused = async (by: PointsUser, memberId: string, caps: Partial<MemberCaps>) =>
    (await ctx.refusal(teamEndpoints.setMemberCaps, capping(by, memberId, caps))).status
  const memberRow = async (viewer: PointsUser, id: string) => (await ctx.call(teamEndpoints.info, { token: viewer.token })).members.find((m) => m.user_id === id)
  const message = (user: Member, model = 'ten-points') =>
    callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 40, messages: [{ role: 'user', content: 'Hi' }] } })

  it("lets only the team's owner set caps, validates them, and lists them with this hour's and today's use", async () => {
    const { owner, member } = await team()
    const outsider = await quickUser(ctx)
    expect(await capsRefused(member, member.id, { hourly_points_cap: 5 })).toBe(403)
    expect(await capsRefused(outsider, member.id, { hourly_points_cap: 5 })).toBe(403)
    expect(await capsRefused(owner, outsider.id, { hourly_points_cap: 5 })).toBe(404)
    for (const bad of [{ hourly_points_cap: 0 }, { daily_points_cap: 1.5 }]) expect(await capsRefused(owner, member.id, bad)).toBe(400)

    const set = await setCaps(owner, member.id, { hourly_points_cap: 100, daily_points_cap: 500 })
    expect(set).toEqual({ hourly_points_cap: 100, daily_points_cap: 500 })
    expect((await message(member)).status).toBe(200)
    await settled(ctx, member.id, 1)
    // Every member sees the caps the owner set.
    expect(await memberRow(member, member.id)).toMatchObject({ hourly_points_cap: 100, daily_points_cap: 500, hour_points_used: 10, day_points_used: 10 })
    ctx.clock.advance(hour)
    expect(await memberRow(owner, member.id)).toMatchObject({ hour_points_used: 0, day_points_used: expect.any(Number) })
  })

  it('refuses a member past the hourly cap until the hour ends, and past the daily cap until the day ends; others spend on', async () => {
    const { owner, member } = await team()
    // Start at the beginning of a day, so neither the hour nor the day turns before the test moves the clock.
    ctx.clock.set(dayStart(dayOf(ctx.clock.now()) + 1))
    await setCaps(owner, member.id, { hourly_points_cap: 25 })
    for (let i = 1; i <= 2; i++) {
      expect((await message(member)).status).toBe(200)
      await settled(ctx, member.id, i)
    }
    // 5 points left this hour: a ten-point call would pass the cap, so it is refused before it runs.
    const refused = await message(member)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('x-should-retry')).toBe('false')
    expect(Number(refused.headers.get('retry-after'))).toBe(3600)
    const body = await refused.json()
    expect(body.error).toMatchObject({ type: 'rate_limit_error' })
    expect(body.error.message).toContain("25 points an hour: you have 5 points left of this hour's, and this call needs 10")
    await settled(ctx, member.id, 2, 1)
    const recorded = await ctx.relay.db.selectFrom('proxy_calls').select('refusal').where('user_id', '=', member.id).where('refusal', 'is not', null).execute()
    expect(recorded).toEqual([{ refusal: 'member_cap_reached' }])
    // The owner, uncapped, is not held back.
    expect((await message(owner)).status).toBe(200)
    await settled(ctx, owner.id, 1)

    ctx.clock.advance(hour)
    expect((await message(member)).status).toBe(200)
    await settled(ctx, member.id, 3, 1)

    await setCaps(owner, member.id, { daily_points_cap: 45 })
    expect((await message(member)).status).toBe(200)
    await settled(ctx, member.id, 4, 1)
    await expectRefusedUntilTomorrow(ctx, () => message(member))
    await settled(ctx, member.id, 5, 2)

    // Removing the caps lifts them at once.
    await setCaps(owner, member.id, noCaps)
    for (let i = 0; i < 6; i++) expect((await message(member)).status).toBe(200)
    await settled(ctx, member.id, 11, 2)
  })

  it('counts calls in flight: of 20 parallel one-point calls under a cap of 5, five run', async () => {
    const { owner, member } = await team()
    ctx.clock.advance(hour - (ctx.clock.now() % hour))
    await setCaps(owner, member.id, { hourly_points_cap: 5 })
    const all = await callsAtOnce(provider, 20, 5, () => message(member, 'one-point'))
    expect(all.filter((r) => r.status === 200)).toHaveLength(5)
    expect(all.filter((r) => r.status === 429)).toHaveLength(15)
    await Promise.all(all.map((r) => r.text()))
    await settled(ctx, member.id, 5, 15)
    expect(await memberRow(owner, member.id)).toMatchObject({ hour_points_used: 5 })
  })
})
