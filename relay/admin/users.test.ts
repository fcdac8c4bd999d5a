import { randomUUID } from 'node:crypto'
import { afterEach, expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { adminEndpoints } from '../contract/admin.ts'
import { adminUserEndpoints } from '../contract/admin-users.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { createPackage } from '../subscriptions/packages.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { databaseFingerprint } from '../../tests/fixtures/fingerprint.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli, runOperatorCliWithInput } from '../../tests/fixtures/operator-cli.ts'
import { makeTeam, quickUser, type PointsUser } from '../../tests/fixtures/points.ts'

describeEachDatabase('operator console: creating users, trials, reading as a user', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  async function admin(): Promise<PointsUser> {
    const user = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', user.id).execute()
    return user
  }
  const audit = (action: string, ref: string) =>
    ctx.relay.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_ref', '=', ref).orderBy('id').execute()
  const trialOf = (operator: PointsUser, id: string, package_code: string, idempotencyKey?: string) => ({ params: { id }, token: operator.token, body: { package_code }, idempotencyKey })
  const ledger = (userId: string) => ctx.relay.db.selectFrom('points_ledger').select(['type', 'change', 'reason']).where('user_id', '=', userId).orderBy('id').execute()

  let trialPackage = ''
  async function trialPackageCode(): Promise<string> {
    if (!trialPackage) {
      trialPackage = ctx.unique('TRIAL').toUpperCase().replace(/[^A-Z0-9_-]/g, '').slice(0, 32)
      await createPackage(ctx.relay.db, ctx.clock.now(), { code: trialPackage, name: 'Trial', kind: 'personal', points_limit: 500, hour_points: 0, validity_days: 7 })
    }
    return trialPackage
  }

  it('refuses a grant to a user without a package, naming why, and starts a trial package once per form key', async () => {
    const operator = await admin()
    const user = await quickUser(ctx)
    const code = await trialPackageCode()

    // The tables a grant writes (the relay's start-up jobs may still be writing their own).
    const money = async () => Promise.all(['subscriptions', 'points_accounts', 'points_ledger', 'audit_log'].map((table) => ctx.relay.db.selectFrom(table as 'audit_log').selectAll().execute()))
    const before = await money()
    const granting = { params: { id: user.id }, token: operator.token, body: { direction: 'grant' as const, amount: 100, reason: 'welcome' } }
    const grant = await ctx.refusal(adminEndpoints.adjustPoints, granting)
    expect(grant.status).toBe(422)
    expect(grant.reason).toBe('points_need_package')
    expect(await money()).toEqual(before)

    const trial = () => ctx.call(adminUserEndpoints.grantTrial, trialOf(operator, user.id, code, `trial-form-${user.id}`))
    const [first, second] = [await trial(), await trial()]
    expect(second).toEqual(first)
    expect(first).toMatchObject({ package_code: code, points: 500 })
    expect(await ledger(user.id)).toEqual([{ type: 'earned', change: 500, reason: 'trial' }])
    const rows = await audit('points.trial', user.username)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ actor_kind: 'admin', actor_name: operator.username })
    const points = await ctx.call(pointsEndpoints.points, { token: user.token })
    expect(points.balance).toBe(500)

    // Now there is an account to credit; a second trial would replace what the user holds.
    expect((await ctx.call(adminEndpoints.adjustPoints, granting)).balance).toBe(600)
    const again = await ctx.refusal(adminUserEndpoints.grantTrial, trialOf(operator, user.id, code))
    expect(again.status).toBe(409)
    expect(await audit('points.trial', user.username)).toHaveLength(1)
  })

  it('starts a trial from the CLI, audited, and refuses a team member, a top-up or an unknown package', async () => {
    const user = await quickUser(ctx)
    const code = await trialPackageCode()
    const cliGrant = await runOperatorCli(ctx, 'points', 'grant', '--user', user.username, '--amount', '5', '--reason', 'hello')
    expect(cliGrant.code).toBe(1)
    expect(cliGrant.stderr).toContain('trial')
    const run = await runOperatorCli(ctx, 'points', 'trial', '--user', user.username, '--package', code)
    expect(run, run.stderr).toMatchObject({ code: 0 })
    expect(run.stdout).toContain(`${code} started as a trial, 500 points`)
    expect(await audit('points.trial', user.username)).toEqual([expect.objectContaining({ actor_kind: 'cli' })])

    const operator = await admin()
    const owner = await quickUser(ctx)
    await makeTeam(ctx, owner)
    const other = await quickUser(ctx)
    const before = await databaseFingerprint(ctx.relay.db)
    expect((await ctx.refusal(adminUserEndpoints.grantTrial, trialOf(operator, owner.id, code))).reason).toBe('redeem_in_team')
    for (const package_code of ['TOPUP-NONE', 'TEAM']) {
      expect((await ctx.refusal(adminUserEndpoints.grantTrial, trialOf(operator, other.id, package_code))).status).toBe(404)
    }
    expect(await databaseFingerprint(ctx.relay.db)).toEqual(before)
  })

  it('creates a user with a password shown once that signs in, audited; a taken name or address is refused', async () => {
    const operator = await admin()
    const username = ctx.unique('made')
    const body = { username, email: `${username.toLowerCase()}@example.com`, user_type: 'normal' as const }
    const once = `create-${randomUUID()}`
    const creating = { token: operator.token, body, idempotencyKey: once }
    const created = await ctx.call(adminUserEndpoints.createUser, creating)
    const { user, password } = created
    expect(user).toMatchObject({ username, status: 'active', user_type: 'normal' })
    expect(password).toMatch(/^[\w-]{16}$/)
    // A double submit answers the same user and password; one row, one audit entry.
    const replay = await ctx.call(adminUserEndpoints.createUser, creating)
    expect(replay).toEqual(created)
    expect(await audit('user.create', username)).toHaveLength(1)
    await ctx.call(accountEndpoints.login, { body: { username, password } })
    const stored = await ctx.relay.db.selectFrom('users').select('password_hash').where('username', '=', username).executeTakeFirstOrThrow()
    expect(stored.password_hash).not.toContain(password)

    expect((await ctx.refusal(adminUserEndpoints.createUser, { token: operator.token, body })).reason).toBe('username_taken')
    expect((await ctx.refusal(adminUserEndpoints.createUser, { token: operator.token, body: { ...body, username: ctx.unique('other') } })).reason).toBe('email_taken')

    const cliName = ctx.unique('cli')
    const cli = await runOperatorCliWithInput(ctx, 'long enough password\n', 'user', 'create', '--username', cliName, '--email', `${cliName.toLowerCase()}@example.com`)
    expect(cli, cli.stderr).toMatchObject({ code: 0 })
    expect(await audit('user.create', cliName)).toEqual([expect.objectContaining({ actor_kind: 'cli' })])
  })

  it("reads a user's pages with a view token, refuses every change with it and the console, one audit row per start", async () => {
    const operator = await admin()
    const user = await quickUser(ctx)
    const code = await trialPackageCode()
    await ctx.call(adminUserEndpoints.grantTrial, trialOf(operator, user.id, code))
    await ctx.call(apiKeyEndpoints.create, { token: user.token, body: { name: 'mine' } })

    const viewing = { params: { id: user.id }, token: operator.token, idempotencyKey: `view-${user.id}` }
    const start = await ctx.call(adminUserEndpoints.viewAs, viewing)
    expect(start.user).toEqual({ id: user.id, username: user.username })
    expect(await ctx.call(adminUserEndpoints.viewAs, viewing)).toEqual(start)
    expect(await audit('user.view_as', user.username)).toEqual([expect.objectContaining({ actor_name: operator.username })])
    const view = start.access_token

    // Reads answer the user's own data.
    const info = await ctx.call(accountEndpoints.info, { token: view })
    expect(info.user).toMatchObject({ id: user.id, username: user.username })
    expect((await ctx.call(pointsEndpoints.points, { token: view })).balance).toBe(500)
    expect((await ctx.call(apiKeyEndpoints.list, { token: view })).items.map((k) => k.name)).toEqual(['mine'])

    // Nothing else: no change of the user's, no console.
    const before = await databaseFingerprint(ctx.relay.db)
    const create = await ctx.refusal(apiKeyEndpoints.create, { token: view, body: { name: 'theirs' } })
    expect(create.status).toBe(403)
    expect(create.reason).toBe('view_only')
    expect((await ctx.refusal(adminEndpoints.users, { token: view })).status).toBe(404)
    expect(await databaseFingerprint(ctx.relay.db)).toEqual(before)

    // An operator who is no longer an admin reads nothing more.
    await ctx.relay.db.updateTable('users').set({ user_type: 'normal' }).where('id', '=', operator.id).execute()
    expect((await ctx.refusal(pointsEndpoints.points, { token: view })).status).toBe(401)

    const disabled = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', disabled.id).execute()
    const other = await admin()
    expect((await ctx.refusal(adminUserEndpoints.viewAs, { params: { id: disabled.id }, token: other.token })).status).toBe(422)
  })
})
