import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { teamEndpoints } from '../contract/teams.ts'
import { afterEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser } from '../../tests/fixtures/points.ts'

const day = 86_400_000

describeEachDatabase('packages, codes, teams, model costs and points from the operator CLI', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))
  const admin = (...argv: string[]) => runOperatorCli(ctx, ...argv)

  it('lists the default packages of a fresh database and creates new ones', async () => {
    const listed = await admin('package', 'list')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^PERSONAL +personal +listed +2400 +100 +30 +9900 +个人版 \/ Personal \/ パーソナル$/m)
    expect(listed.stdout).toMatch(/^TEAM +team +listed +12000 +500 +30 +49900 +团队版 \/ Team \/ チーム$/m)

    const code = ctx.unique('pro')
    const created = await admin('package', 'create', '--code', code, '--name', 'Pro', '--kind', 'personal', '--points-limit', '5000', '--price', '19900')
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(new RegExp(`^${code.toUpperCase()}  \\d+$`))
    expect((await admin('package', 'list')).stdout).toMatch(new RegExp(`^${code.toUpperCase()} +personal +listed +5000 +100 +30 +19900 +Pro \\/ Pro \\/ Pro$`, 'm'))

    expect((await admin('package', 'create', '--code', code, '--name', 'Again', '--kind', 'personal', '--points-limit', '1')).code).toBe(1)
    const badCode = await admin('package', 'create', '--code', 'a b', '--name', 'Bad', '--kind', 'personal', '--points-limit', '1')
    expect(badCode.code).toBe(1)
    expect(badCode.stderr).toContain('code: 2–32 letters, digits, _ or -')
    const bad = await admin('package', 'create', '--code', 'x', '--name', 'Bad', '--kind', 'gold', '--points-limit', '-1')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--kind')
  })

  it('prints one code per line that users redeem once, and expiring codes that stop working', async () => {
    const made = await admin('codes', 'create', '--package', 'personal', '--count', '3')
    expect(made.code).toBe(0)
    const codes = made.stdout.split('\n')
    expect(codes).toHaveLength(3)
    expect(new Set(codes).size).toBe(3)
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/)
    const user = await quickUser(ctx)
    const redeemed = await ctx.call(subscriptionEndpoints.redeemCode, { token: user.token, body: { redeem_code: codes[0]! } })
    expect(redeemed).toMatchObject({ package_code: 'PERSONAL', points_gained: 2400 })

    const [expiring] = (await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1', '--expires-days', '1')).stdout.split('\n')
    ctx.clock.advance(day)
    const late = await ctx.refusal(subscriptionEndpoints.validateRedeemCode, { token: user.token, body: { redeem_code: expiring! } })
    expect(late.reason).toBe('redeem_code_invalid')

    const teamCodes = await admin('codes', 'create', '--package', 'TEAM', '--count', '1')
    expect(teamCodes.code).toBe(1)
    expect(teamCodes.stderr).toContain('team package')
    expect((await admin('codes', 'create', '--package', 'NOPE', '--count', '1')).code).toBe(1)
  })

  it('creates a team with its owner and prints the code and the invitation link', async () => {
    const owner = await quickUser(ctx)
    const made = await admin('team', 'create', '--name', 'Core devs', '--package', 'TEAM', '--owner', owner.username)
    expect(made.code).toBe(0)
    const [code, link] = made.stdout.split('\n')
    expect(Buffer.from(code!, 'base64url').toString()).toMatch(/^\d+:[A-Za-z0-9_-]{22}$/)
    expect(link).toBe(`${new URL('/subscription', ctx.config.publicUrl)}?team_code=${code}`)

    const member = await quickUser(ctx)
    const checked = await ctx.call(teamEndpoints.validate, { params: { team_code: code! }, token: member.token })
    expect(checked).toMatchObject({ team_name: 'Core devs', member_count: 1 })
    const info = await ctx.call(teamEndpoints.info, { token: owner.token })
    expect(info.members).toEqual([expect.objectContaining({ user_id: owner.id, is_owner: true, is_current_user: true })])

    const again = await admin('team', 'create', '--name', 'Second', '--package', 'TEAM', '--owner', owner.username)
    expect(again.code).toBe(1)
    expect((await admin('team', 'create', '--name', 'X', '--package', 'PERSONAL', '--owner', member.username)).code).toBe(1)
    expect((await admin('team', 'create', '--name', 'X', '--package', 'TEAM', '--owner', 'nobody_at_all')).code).toBe(1)
  })

  it('sets and lists model costs, which users see', async () => {
    const model = `test-model-${ctx.unique()}`
    expect((await admin('model-cost', 'set', '--model', model, '--kind', 'fixed', '--points-per-call', '3')).code).toBe(0)
    expect((await admin('model-cost', 'list')).stdout).toMatch(new RegExp(`^${model} +fixed +3 per call$`, 'm'))
    expect((await admin('model-cost', 'set', '--model', model, '--kind', 'variable', '--input', '300', '--output', '1500')).code).toBe(0)
    expect((await admin('model-cost', 'list')).stdout).toMatch(new RegExp(`^${model} +variable +300 / 1500 / - / - / -, - per search$`, 'm'))
    const set = ['model-cost', 'set', '--model', model, '--kind', 'variable', '--input', '300', '--output', '1500', '--cache-write-1h', '600', '--web-search', '2']
    expect((await admin(...set)).code).toBe(0)
    expect((await admin('model-cost', 'list')).stdout).toMatch(new RegExp(`^${model} +variable +300 / 1500 / - / - / 600, 2 per search$`, 'm'))
    const missing = await admin('model-cost', 'set', '--model', model, '--kind', 'variable', '--input', '300')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('variable needs input and output rates')

    const user = await quickUser(ctx)
    const costs = (await ctx.call(pointsEndpoints.modelCosts, { token: user.token })).items
    expect(costs.find((c) => c.model === model)).toEqual({
      model,
      kind: 'variable',
      points_per_call: null,
      input_points_per_mtok: 300,
      output_points_per_mtok: 1500,
      cache_read_points_per_mtok: null,
      cache_write_points_per_mtok: null,
      cache_write_1h_points_per_mtok: 600,
      web_search_points: 2,
      long_context_threshold: null,
      long_context_input_percent: null,
      long_context_output_percent: null,
      description: null,
    })
  })

  it('grants points to a user with a package in force, and refuses one without', async () => {
    const user = await quickUser(ctx)
    const refused = await admin('points', 'grant', '--user', user.username, '--amount', '500', '--reason', 'compensation')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('no package in force')
    await admin('codes', 'create', '--package', 'PERSONAL', '--count', '1').then(({ stdout }) =>
      ctx.call(subscriptionEndpoints.redeemCode, { token: user.token, body: { redeem_code: stdout } }),
    )
    const granted = await admin('points', 'grant', '--user', user.username, '--amount', '500', '--reason', 'compensation')
    expect(granted).toMatchObject({ code: 0, stdout: `granted 500 to ${user.username}; balance 2900` })
    const rows = (await ctx.call(pointsEndpoints.history, { token: user.token })).items
    expect(rows[0]).toMatchObject({ type: 'earned', change: 500, reason: 'compensation' })
  })
}, { publicUrl: 'https://portal.example.com' })
