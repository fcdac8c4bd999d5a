import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { teamEndpoints } from '../contract/teams.ts'
import { afterEach, expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeCodes, makeTeam, quickUser, redeemFresh, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { spend } from '../points/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'

const day = 86_400_000

describeEachDatabase('teams', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  const joining = (user: PointsUser, code: string) => ({ token: user.token, body: { team_code: code } })
  const join = (user: PointsUser, code: string) => ctx.call(teamEndpoints.join, joining(user, code))
  const joinRefused = (user: PointsUser, code: string) => ctx.refusal(teamEndpoints.join, joining(user, code))
  const preview = (user: PointsUser, code: string) => ctx.call(teamEndpoints.preview, { params: { team_code: code }, token: user.token })
  const teamInfo = (user: PointsUser) => ctx.call(teamEndpoints.info, { token: user.token })
  const userType = async (user: PointsUser) =>
    (await ctx.relay.db.selectFrom('users').select('user_type').where('id', '=', user.id).executeTakeFirstOrThrow()).user_type

  it('validates a code, previews it against the current plan, and joins: the personal package ends for good', async () => {
    const owner = await quickUser(ctx)
    const code = await makeTeam(ctx, owner)
    expect(await userType(owner)).toBe('team')
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    await spend(servicesOf(ctx), { userId: user.id, amount: 400, model: null })
    ctx.clock.advance(day)

    const checked = await ctx.call(teamEndpoints.validate, { params: { team_code: code }, token: user.token })
    expect(checked).toMatchObject({ team_name: `team ${owner.username}`, package_name: '团队版', member_count: 1 })

    const previewed = await preview(user, code)
    expect(previewed).toMatchObject({
      package: { code: 'TEAM', kind: 'team', points_limit: 12000, hour_points: 500 },
      pool: { remaining_points: 12000, remaining_days: 29 },
      current: { package: { code: 'PERSONAL' }, remaining_points: 2400 },
      replaces_personal: true,
      already_in_team: false,
    })
    expect(previewed.comparison).toEqual([
      { field: 'points_limit', current: 2400, team: 12000 },
      { field: 'hour_points', current: 100, team: 500 },
      { field: 'validity_days', current: 30, team: 30 },
      { field: 'remaining_days', current: 29, team: 29 },
      { field: 'remaining_points', current: 2400, team: 12000 },
    ])

    const joined = await join(user, code)
    expect(joined).toMatchObject({ team_name: `team ${owner.username}`, package_name: '团队版', user_type: 'team' })
    expect(await userType(user)).toBe('team')

    const info = await ctx.call(accountEndpoints.info, { token: user.token })
    expect(info.user.user_type).toBe('team')
    expect(info.points).toMatchObject({ package_code: 'TEAM', package_kind: 'team', remaining_points: 12000, used_points: 0, total_used_points: 400, team_id: joined.team_id })
    // The subscription in force first, then the others newest first.
    expect(info.subscriptions.map((s) => [s.package_code, s.status, s.remaining_points, s.used_points])).toEqual([
      ['TEAM', 'normal', 12000, 0],
      ['PERSONAL', 'expired', 0, 400],
    ])

    const history = (await ctx.call(subscriptionEndpoints.history, { token: user.token })).items
    expect(history.map((e) => [e.action, e.package_code, e.current])).toEqual([
      ['upgraded', 'TEAM', true],
      ['cancelled', 'PERSONAL', false],
      ['activated', 'PERSONAL', false],
    ])
    const rows = (await ctx.call(pointsEndpoints.history, { token: user.token })).items
    expect(rows[0]).toMatchObject({ type: 'expired', change: -2400, reason: 'replaced' })

    const again = await joinRefused(user, code)
    expect(again.status).toBe(409)
    expect(again.reason).toBe('already_in_team')
    expect(await preview(user, code)).toMatchObject({ already_in_team: true, replaces_personal: false })
  })

  it('shares one pool: members spend from it and each one’s use is counted', async () => {
    const owner = await quickUser(ctx)
    const code = await makeTeam(ctx, owner)
    const member = await quickUser(ctx)
    ctx.clock.advance(60_000)
    await join(member, code)
    const services = servicesOf(ctx)
    await spend(services, { userId: owner.id, amount: 1000, model: 'claude-opus-4-1' })
    await spend(services, { userId: member.id, amount: 250, model: 'gpt-4o' })

    const info = await teamInfo(member)
    expect(info.team).toMatchObject({
      name: `team ${owner.username}`,
      owner_id: owner.id,
      team_code: code,
      invite_url: `${ctx.config.publicUrl.replace(/\/$/, '')}/subscription?team_code=${code}`,
      status: 'normal',
      total_points: 12000,
      remaining_points: 10750,
      used_points: 1250,
      package: { code: 'TEAM' },
    })
    expect(info.members).toEqual([
      expect.objectContaining({ user_id: owner.id, username: owner.username, status: 'normal', is_owner: true, is_current_user: false, used_points: 1000 }),
      expect.objectContaining({ user_id: member.id, is_owner: false, is_current_user: true, used_points: 250 }),
    ])
    expect(await ctx.call(pointsEndpoints.points, { token: member.token })).toMatchObject({ balance: 10750, used_points: 250, team_id: info.team!.id })
    // A member sees their own rows and nobody else's.
    const rows = (await ctx.call(pointsEndpoints.history, { token: member.token })).items
    expect(rows.map((r) => [r.type, r.change])).toEqual([['consumed', -250]])

    const outsider = await quickUser(ctx)
    expect(await teamInfo(outsider)).toEqual({ team: null, members: [] })
  })

  it('tells a malformed code from an unknown one, and refuses a team whose package ended', async () => {
    const user = await quickUser(ctx)
    const malformed = await ctx.refusal(teamEndpoints.validate, { params: { team_code: 'not*base64' }, token: user.token })
    expect(malformed.status).toBe(400)
    expect(malformed.reason).toBe('team_code_format')
    const forged = Buffer.from('123456789012345678:abcdefghijklmnop').toString('base64url')
    const unknown = await joinRefused(user, forged)
    expect(unknown.status).toBe(422)
    expect(unknown.reason).toBe('team_code_invalid')

    const owner = await quickUser(ctx)
    const code = await makeTeam(ctx, owner)
    const [teamId, secret] = Buffer.from(code, 'base64url').toString().split(':')
    const wrongSecret = Buffer.from(`${teamId}:${secret!.slice(0, -1)}x`).toString('base64')
    expect((await joinRefused(user, wrongSecret)).reason).toBe('team_code_invalid')

    ctx.clock.advance(31 * day)
    const late = await joinRefused(user, code)
    expect(late.status).toBe(422)
    expect(late.reason).toBe('team_inactive')
    expect(await userType(user)).toBe('normal')
  })

  it('is renewed by an operator: the same members and pool, the new package’s points', async () => {
    const owner = await quickUser(ctx)
    const code = await makeTeam(ctx, owner)
    const teamId = Buffer.from(code, 'base64url').toString().split(':')[0]!
    const member = await quickUser(ctx)
    await join(member, code)
    const services = servicesOf(ctx)
    const pool = () => ctx.relay.db.selectFrom('points_accounts').select(['id', 'balance']).where('team_id', '=', teamId).execute()
    const [before] = await pool()

    ctx.clock.advance(31 * day)
    await expect(spend(services, { userId: member.id, amount: 10, model: null })).rejects.toThrow('no package in force')
    expect((await runOperatorCli(ctx, 'team', 'list')).stdout).toMatch(new RegExp(`^${teamId}  TEAM +expired .* +2  ${owner.username}`, 'm'))

    const renewed = await runOperatorCli(ctx, 'team', 'renew', '--team', teamId, '--package', 'TEAM')
    expect(renewed).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^team ${teamId} on TEAM until `)) })
    await spend(services, { userId: member.id, amount: 10, model: null })
    expect(await pool()).toEqual([{ id: before!.id, balance: 12000 - 10 }])
    expect((await teamInfo(owner)).team).toMatchObject({ status: 'normal', remaining_points: 11990 })

    // Renewed while in force: what is left expires, the new package's points come in full.
    ctx.clock.advance(day)
    expect((await runOperatorCli(ctx, 'team', 'renew', '--team', teamId, '--package', 'TEAM')).code).toBe(0)
    expect(await pool()).toEqual([{ id: before!.id, balance: 12000 }])
    const events = await ctx.relay.db
      .selectFrom('subscription_events')
      .innerJoin('subscriptions', 'subscriptions.id', 'subscription_events.subscription_id')
      .select('subscription_events.action')
      .where('subscriptions.team_id', '=', teamId)
      .where('subscription_events.user_id', '=', member.id)
      .orderBy('subscription_events.id')
      .execute()
    expect(events.map((e) => e.action)).toEqual(['activated', 'expired', 'activated', 'cancelled', 'renewed'])
    expect((await runOperatorCli(ctx, 'team', 'renew', '--team', '1', '--package', 'TEAM')).stderr).toContain('no team 1')
  })

  it('keeps team members from redeeming personal packages', async () => {
    const owner = await quickUser(ctx)
    await makeTeam(ctx, owner)
    const [code] = await makeCodes(ctx, 'PERSONAL')
    const reply = await ctx.refusal(subscriptionEndpoints.redeemCode, { token: owner.token, body: { redeem_code: code! } })
    expect(reply.status).toBe(422)
    expect(reply.reason).toBe('redeem_in_team')
  })

  it('leaves exactly one membership after 50 parallel joins by one user', async () => {
    const owner = await quickUser(ctx)
    const code = await makeTeam(ctx, owner)
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const replies = await Promise.all(Array.from({ length: 50 }, () => ctx.outcome(teamEndpoints.join, joining(user, code))))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    const reasons = new Set(replies.filter((r) => r.status !== 200).map((r) => r.error?.reason))
    expect([...reasons].every((reason) => reason === 'already_in_team' || reason === 'rate_limited')).toBe(true)
    const memberships = await ctx.relay.db.selectFrom('team_members').select('team_id').where('user_id', '=', user.id).execute()
    expect(memberships).toHaveLength(1)
    const events = await ctx.relay.db.selectFrom('subscription_events').select('action').where('user_id', '=', user.id).execute()
    expect(events.map((e) => e.action).sort()).toEqual(['activated', 'cancelled', 'upgraded'])
  })
})
