import { afterEach, expect, it } from 'vitest'
import type { PackageKind } from '../contract/accounts.ts'
import { adminEndpoints } from '../contract/admin.ts'
import { adminCatalogEndpoints as admin } from '../contract/admin-catalog.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { publicEndpoints } from '../contract/public.ts'
import type { PartInput } from '../contract/endpoint.ts'
import { defaultReferralRule } from '../contract/referral.ts'
import { resourceEndpoints } from '../contract/resources.ts'
import { referralEndpoints } from '../contract/referral.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { makeCodes, quickUser, redeemFresh, type PointsUser } from '../../tests/fixtures/points.ts'

const texts = (text: string) => ({ zh: text, en: text, ja: text })
const none = texts('')

describeEachDatabase('operator console: packages, teams, resource links, referral rule, OAuth clients', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  let operator: PointsUser
  const on = (id: string) => ({ params: { id }, token: operator.token })
  const auditOf = (ref: string) => ctx.relay.db.selectFrom('audit_log').selectAll().where('target_ref', '=', ref).orderBy('id').execute()

  async function signInAdmin() {
    operator = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
  }

  it('creates a package once per form key, edits its texts always and its terms only while nothing refers to it', async () => {
    await signInAdmin()
    const code = `P${ctx.unique('').toUpperCase()}`.slice(0, 20)
    const body = { code: code.toLowerCase(), kind: 'personal' as const, name: { zh: '专业', en: 'Pro', ja: 'プロ' }, description: none, points_limit: 5000, hour_points: 200, validity_days: 60, price: 19900 }
    const creating = { token: operator.token, body, idempotencyKey: 'package-form-key-001' }
    const created = await ctx.call(admin.createPackage, { ...creating, ip: '203.0.113.9' })
    expect(created).toMatchObject({ code, subscriptions: 0, redeem_codes: 0, name: { en: 'Pro' } })
    expect((await ctx.call(admin.createPackage, creating)).id).toBe(created.id)
    expect((await ctx.refusal(admin.createPackage, { token: operator.token, body })).status).toBe(409)
    const id = created.id

    // Unused: every term may change.
    const terms = { name: { zh: '专业版', en: 'Pro', ja: 'プロ' }, description: texts('For power users'), points_limit: 6000, hour_points: 250, validity_days: 90, price: 29900 }
    const update = (packageId: string, body: PartInput<typeof admin.updatePackage, 'body'>) => ({ ...on(packageId), body })
    expect(await ctx.call(admin.updatePackage, update(id, terms))).toMatchObject({ points_limit: 6000, price: 29900, name: { zh: '专业版' }, description: { en: 'For power users' } })

    // Once a redeem code is printed for it, its terms are fixed; its texts are not.
    expect((await runOperatorCli(ctx, 'codes', 'create', '--package', code, '--count', '1')).code).toBe(0)
    const refused = await ctx.refusal(admin.updatePackage, update(id, { ...terms, points_limit: 1 }))
    expect(refused.status).toBe(422)
    expect(refused.reason).toBe('business_rule')
    const renamed = await ctx.call(admin.updatePackage, update(id, { ...terms, name: texts('Pro 2') }))
    expect(renamed).toMatchObject({ points_limit: 6000, redeem_codes: 1, name: { ja: 'Pro 2' } })
    const listed = (await ctx.call(admin.catalogPackages, { token: operator.token })).items
    expect(listed.find((p) => p.code === code)).toMatchObject({ redeem_codes: 1 })
    expect((await ctx.refusal(admin.updatePackage, update('999', terms))).status).toBe(404)

    const rows = await auditOf(code)
    expect(rows.map((r) => [r.action, r.actor_kind])).toEqual([
      ['package.create', 'admin'],
      ['package.update', 'admin'],
      ['package.update', 'admin'],
    ])
    expect(rows[0]).toMatchObject({ actor_id: operator.id, client_ip: '203.0.113.9', target_kind: 'package' })
    expect(JSON.parse(rows[1]!.before!)).toMatchObject({ points_limit: 5000, price: 19900 })
    expect(JSON.parse(rows[1]!.after!)).toMatchObject({ points_limit: 6000, price: 29900 })

    // The CLI's package create is the same function, recorded as the CLI.
    const cliCode = `C${ctx.unique('').toUpperCase()}`.slice(0, 20)
    expect((await runOperatorCli(ctx, 'package', 'create', '--code', cliCode, '--name', 'Cli', '--kind', 'team', '--points-limit', '10')).code).toBe(0)
    expect(await auditOf(cliCode)).toMatchObject([{ action: 'package.create', actor_kind: 'cli', actor_id: null }])
  })

  it('unlists and archives a package: off /pricing and new codes, out of the default list; what was made on it stays', async () => {
    await signInAdmin()
    const unique = ctx.unique('').toUpperCase()
    const create = async (code: string, kind: PackageKind, price: number, points: number) => {
      const reply = await ctx.call(admin.createPackage, { token: operator.token, body: { code, kind, name: texts(code), description: none, points_limit: points, hour_points: 0, validity_days: 30, price } })
      return reply.id
    }
    const code = `L${unique}`
    const id = await create(code, 'personal', 100, 10_000)
    // A top-up's points cannot be used alone: however cheap, it is not what the pricing page compares with.
    await create(`T${unique}`, 'topup', 1, 100_000_000)
    const pricing = () => ctx.call(publicEndpoints.pricing)
    expect((await pricing()).best_package_code).toBe(code)

    const subscriber = await quickUser(ctx)
    await redeemFresh(ctx, subscriber, code)
    const [printed] = await makeCodes(ctx, code)

    const unlisted = await ctx.call(admin.setPackageListing, { ...on(id), body: { listing: 'unlisted' } })
    expect(unlisted).toMatchObject({ code, listing: 'unlisted', subscriptions: 1, redeem_codes: 2 })
    const after = await pricing()
    expect(after.packages.map((p) => p.code)).not.toContain(code)
    expect(after.best_package_code).not.toBe(code)
    expect(after.best_package_code).not.toBe(`T${unique}`)
    const refused = await ctx.refusal(adminEndpoints.generateCodes, { token: operator.token, body: { package_code: code, count: 1 } })
    expect(refused.status).toBe(422)
    expect(refused.reason).toBe('business_rule')
    expect((await ctx.call(adminEndpoints.packages, { token: operator.token })).items.map((p) => p.code)).not.toContain(code)
    // Codes printed before still redeem; the subscription made on it is untouched.
    await ctx.call(subscriptionEndpoints.redeemCode, { token: (await quickUser(ctx)).token, body: { redeem_code: printed! } })
    expect((await ctx.call(pointsEndpoints.points, { token: subscriber.token })).balance).toBe(10_000)

    // Archived from the CLI: gone from the default list, there when asked for.
    expect((await runOperatorCli(ctx, 'package', 'listing', code, '--set', 'archived')).code).toBe(0)
    const codes = async (query?: PartInput<typeof admin.catalogPackages, 'query'>) => (await ctx.call(admin.catalogPackages, { token: operator.token, query })).items.map((p) => p.code)
    expect(await codes()).not.toContain(code)
    expect(await codes({ listing: 'archived' })).toEqual([code])
    expect(await codes({ listing: 'listed' })).toContain(`T${unique}`)

    // Asking for the listing it has changes nothing.
    expect((await ctx.call(admin.setPackageListing, { ...on(id), body: { listing: 'archived' } })).listing).toBe('archived')
    expect((await ctx.refusal(admin.setPackageListing, { ...on('999'), body: { listing: 'listed' } })).status).toBe(404)
    const rows = await auditOf(code)
    expect(rows.filter((row) => row.action === 'package.listing').map((row) => [row.actor_kind, JSON.parse(row.before!), JSON.parse(row.after!)])).toEqual([
      ['admin', { listing: 'listed' }, { listing: 'unlisted' }],
      ['cli', { listing: 'unlisted' }, { listing: 'archived' }],
    ])
  })

  it('creates a team whose owner joins at once, shows its members, renews it; refusals write nothing', async () => {
    await signInAdmin()
    const owner = await quickUser(ctx)
    const created = await ctx.call(admin.createTeam, { token: operator.token, body: { name: 'Core', package_code: 'team', owner: owner.username }, idempotencyKey: 'team-form-key-0001' })
    const id = created.id
    expect(created.team_code).toMatch(/\S+/)
    const detail = await ctx.call(admin.team, on(id))
    expect(detail).toMatchObject({ team: { name: 'Core', owner: owner.username, package: 'TEAM', status: 'normal', members: 1 }, members: [{ user_id: owner.id }] })
    expect((await ctx.call(admin.teams, { token: operator.token })).items.map((t) => t.id)).toContain(id)

    ctx.clock.advance(86_400_000)
    const renewed = await ctx.call(admin.renewTeam, { ...on(id), body: { package_code: 'TEAM' }, idempotencyKey: 'renew-form-key-001' })
    expect(renewed.end_timestamp).toBeGreaterThan(detail.team.end_timestamp)
    const rows = await auditOf(id)
    expect(rows.map((r) => r.action)).toEqual(['team.create', 'team.renew'])
    expect(JSON.parse(rows[0]!.after!)).toEqual({ name: 'Core', package: 'TEAM', owner: owner.username })
    expect(JSON.parse(rows[1]!.before!)).toMatchObject({ package: 'TEAM', end_timestamp: detail.team.end_timestamp })

    const before = await ctx.relay.db.selectFrom('audit_log').select('id').execute()
    const createTeam = (package_code: string, owner: string) => ctx.refusal(admin.createTeam, { token: operator.token, body: { name: 'X', package_code, owner } })
    expect((await createTeam('TEAM', owner.username)).status).toBe(409)
    expect((await createTeam('PERSONAL', (await quickUser(ctx)).username)).status).toBe(422)
    expect((await createTeam('TEAM', 'nobody_here')).status).toBe(404)
    expect((await ctx.refusal(admin.renewTeam, { ...on('999'), body: { package_code: 'TEAM' } })).status).toBe(404)
    expect((await ctx.refusal(admin.team, on('999'))).status).toBe(404)
    expect(await ctx.relay.db.selectFrom('audit_log').select('id').execute()).toHaveLength(before.length)
  })

  it('adds, changes and removes resource links that users see, each audited', async () => {
    await signInAdmin()
    const added = await ctx.call(admin.addResource, { token: operator.token, body: { title: 'Guide', url: 'https://docs.example.com', sort_order: 5 }, idempotencyKey: 'resource-form-key-1' })
    const id = added.id
    expect((await ctx.refusal(admin.addResource, { token: operator.token, body: { title: 'x', url: 'javascript:alert(1)' } })).status).toBe(400)
    await ctx.call(admin.updateResource, { ...on(id), body: { title: 'Guide 2', url: 'https://docs.example.com/2', description: 'Start here' } })
    const seen = (await ctx.call(resourceEndpoints.list, { token: operator.token })).items
    expect(seen.find((l) => l.id === id)).toEqual({ id, title: 'Guide 2', url: 'https://docs.example.com/2', description: 'Start here', sort_order: 0 })
    await ctx.call(admin.removeResource, on(id))
    expect((await ctx.refusal(admin.removeResource, on(id))).status).toBe(404)
    expect((await ctx.refusal(admin.updateResource, { ...on(id), body: { title: 'x', url: 'https://example.com' } })).status).toBe(404)
    const rows = await auditOf(id)
    expect(rows.map((r) => r.action)).toEqual(['resource.add', 'resource.update', 'resource.remove'])
    expect(JSON.parse(rows[1]!.before!)).toMatchObject({ title: 'Guide', sort_order: 5 })
    expect(JSON.parse(rows[2]!.before!)).toMatchObject({ title: 'Guide 2' })
  })

  it('replaces the referral rule, which users see at once, with its before and after', async () => {
    await signInAdmin()
    const rule = { first: { inviter_points: 100, invitee_points: 50, inviter_days: 3, invitee_days: 0 }, later: { inviter_points: 10, invitee_points: 0, inviter_days: 0, invitee_days: 0 } }
    try {
      expect(await ctx.call(admin.setReferralRule, { token: operator.token, body: rule })).toEqual(rule)
      expect(await ctx.call(admin.referralRule, { token: operator.token })).toEqual(rule)
      expect((await ctx.call(referralEndpoints.stats, { token: operator.token })).rule).toEqual(rule)
      expect((await ctx.refusal(admin.setReferralRule, { token: operator.token, body: { ...rule, later: { ...rule.later, inviter_points: -1 } } })).status).toBe(400)
      const rows = await auditOf('rule')
      expect(rows.at(-1)).toMatchObject({ action: 'referral_rule.set', target_kind: 'referral_rule', after: JSON.stringify(rule) })
    } finally {
      // Other suites on this database expect the default.
      await ctx.call(admin.setReferralRule, { token: operator.token, body: defaultReferralRule })
    }
  })

  it('registers a client (its secret shown once, never audited), edits and removes it', async () => {
    await signInAdmin()
    const created = await ctx.call(admin.createOAuthClient, {
      token: operator.token,
      body: { name: 'Editor', redirect_uris: ['https://app.example.com/cb'], first_party: false },
      idempotencyKey: 'client-form-key-01',
    })
    expect(created.client_secret).toMatch(/^rcs_/)
    const { id, client_id: clientId } = created.client
    const refused = await ctx.refusal(admin.createOAuthClient, { token: operator.token, body: { name: 'Bad', redirect_uris: ['http://example.com/cb'], first_party: false } })
    expect(refused.status).toBe(400)
    expect(refused.details?.fields?.redirect_uris).toHaveLength(1)

    const edited = await ctx.call(admin.updateOAuthClient, { ...on(id), body: { name: 'Editor 2', redirect_uris: ['http://127.0.0.1:8080/cb'], first_party: true } })
    expect(edited).toMatchObject({ id, client_id: clientId, name: 'Editor 2', first_party: true, redirect_uris: ['http://127.0.0.1:8080/cb'] })
    expect((await ctx.call(admin.oauthClients, { token: operator.token })).items).toContainEqual(edited)
    await ctx.call(admin.removeOAuthClient, on(id))
    expect((await ctx.refusal(admin.removeOAuthClient, on(id))).status).toBe(404)

    const rows = await auditOf(clientId)
    expect(rows.map((r) => r.action)).toEqual(['oauth_client.create', 'oauth_client.update', 'oauth_client.remove'])
    expect(rows.map((r) => `${r.before}${r.after}`).join('')).not.toContain(created.client_secret)
    // The CLI's commands are the same functions, recorded as the CLI.
    const cli = await runOperatorCli(ctx, 'client', 'create', '--name', 'From CLI')
    const cliId = /client_id=(\S+)/.exec(cli.stdout)![1]!
    expect((await runOperatorCli(ctx, 'client', 'remove', '--client-id', cliId)).code).toBe(0)
    expect((await auditOf(cliId)).map((r) => [r.action, r.actor_kind])).toEqual([
      ['oauth_client.create', 'cli'],
      ['oauth_client.remove', 'cli'],
    ])
  })
})
