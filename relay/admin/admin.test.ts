import { afterEach, expect, it } from 'vitest'
import { adminEndpoints } from '../contract/admin.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { accountEndpoints } from '../contract/accounts.ts'
import type { Endpoint, PartInput } from '../contract/endpoint.ts'
import { fillPath } from '../contract/paths.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { defaultReferralRule } from '../contract/referral.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { authenticateApiKey } from '../keys/service.ts'
import { spend } from '../points/ledger.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { databaseFingerprint } from '../../tests/fixtures/fingerprint.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { codeFlowTokens, registerClient } from '../../tests/fixtures/oauth.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser, redeemFresh, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'

/** A body each call accepts, so a refusal can only come from who is calling. */
const validBodies: Partial<Record<keyof typeof adminEndpoints, unknown>> = {
  replyTicket: { content: 'hello', status: 'processing' },
  setTicketStatus: { status: 'processing' },
  denyReset: { content: 'no' },
  setUserType: { user_type: 'vip' },
  setUserStatus: { status: 'disabled' },
  setUserKeys: { key_ids: ['1'], enabled: false },
  setUsersStatus: { user_ids: ['1'], status: 'disabled' },
  revokeCodes: { ids: ['1'] },
  setPackageListing: { listing: 'unlisted' },
  adjustPoints: { direction: 'grant', amount: 5, reason: 'test' },
  generateCodes: { package_code: 'PERSONAL', count: 1 },
  createAnnouncement: { level: 'info', message_zh: 'hello', ends_at: Date.now() + 86_400_000 },
  createIncident: { title: 'matrix' },
  updateIncident: { title: 'matrix' },
  createPackage: { code: 'MATRIX', kind: 'personal', name: { zh: 'm', en: 'm', ja: 'm' }, description: { zh: '', en: '', ja: '' }, points_limit: 1, hour_points: 0, validity_days: 1, price: 0 },
  updatePackage: { name: { zh: 'm', en: 'm', ja: 'm' }, description: { zh: '', en: '', ja: '' }, points_limit: 1, hour_points: 0, validity_days: 1, price: 0 },
  createTeam: { name: 'matrix', package_code: 'TEAM', owner: 'nobody' },
  renewTeam: { package_code: 'TEAM' },
  addResource: { title: 't', url: 'https://example.com' },
  updateResource: { title: 't', url: 'https://example.com' },
  setReferralRule: defaultReferralRule,
  createOAuthClient: { name: 'c', redirect_uris: [], first_party: false },
  updateOAuthClient: { name: 'c', redirect_uris: [], first_party: false },
  createUser: { username: 'matrix-made', email: 'matrix-made@example.com' },
  grantTrial: { package_code: 'PERSONAL' },
  setTicketTags: { tags: ['matrix'] },
}

describeEachDatabase('operator console', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  async function admin(): Promise<PointsUser> {
    const user = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', user.id).execute()
    return user
  }
  const userRow = (id: string) => ctx.relay.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const auditOf = (ref: string) => ctx.relay.db.selectFrom('audit_log').selectAll().where('target_ref', '=', ref).orderBy('id').execute()
  const balance = async (user: PointsUser) => (await ctx.call(pointsEndpoints.points, { token: user.token })).balance

  /** A user with a personal package and a waiting (not automatically approved) reset request. */
  async function waitingReset() {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const ask = () => ctx.call(pointsEndpoints.resetTicket, { token: user.token, body: { reason: 'misoperation', description: 'please' } })
    await spend(servicesOf(ctx), { userId: user.id, amount: 1000, model: null })
    expect((await ask()).auto_approved).toBe(true)
    await spend(servicesOf(ctx), { userId: user.id, amount: 500, model: null })
    const waiting = await ask()
    expect(waiting).toMatchObject({ status: 'pending', auto_approved: false })
    return { user, ticketId: waiting.ticket_id, number: waiting.ticket_number }
  }

  it('refuses every console call, as declared in the contract, to a normal user, a team user, an API key and an OAuth client token, and changes nothing', async () => {
    const normal = await quickUser(ctx)
    const team = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'team' }).where('id', '=', team.id).execute()
    const apiKey = (await ctx.call(apiKeyEndpoints.create, { token: normal.token, body: { name: 'k' } })).key
    const operator = await admin()
    const client = await registerClient(ctx)
    const oauthToken = (await codeFlowTokens(ctx, operator.token, client)).access_token
    const target = await quickUser(ctx)
    await redeemFresh(ctx, target)
    const { ticketId } = await waitingReset()

    // Every row of every table, so calls added later (and their tables) are covered too.
    const snapshot = () => databaseFingerprint(ctx.relay.db)
    const before = await snapshot()
    const unknownRoute = await ctx.request('GET', '/api/admin/nothing-here', { token: normal.token })

    // Raw: every declaration alike, each refusal compared, envelope and all, with the unknown path's.
    for (const [name, endpoint] of Object.entries(adminEndpoints) as Array<[keyof typeof adminEndpoints, Endpoint]>) {
      const path = fillPath(endpoint.path, { id: endpoint.path.includes('/users/') ? target.id : ticketId })
      const send = (token: string | undefined) => ctx.request(endpoint.method.toUpperCase(), path, { token, body: validBodies[name] })
      for (const token of [normal.token, team.token, oauthToken]) {
        const reply = await send(token)
        // Exactly what a path without a route answers: nothing says the console exists.
        expect(reply.status, `${name}`).toBe(404)
        expect({ ...reply.body, timestamp: 0 }).toEqual({
          ...unknownRoute.body,
          timestamp: 0,
          message: `no route for ${endpoint.method.toUpperCase()} ${path}`,
        })
      }
      for (const token of [apiKey, undefined]) expect((await send(token)).status, `${name}`).toBe(401)
    }
    expect(await snapshot()).toEqual(before)
    // The same admin's own portal login is let in.
    await ctx.call(adminEndpoints.audit, { token: operator.token })
  })

  it('answers a ticket with a status change and records who, from where, before and after', async () => {
    const operator = await admin()
    const owner = await quickUser(ctx)
    const opened = await ctx.call(ticketEndpoints.create, { token: owner.token, body: { type: 'consultation', title: 'Help', content: 'How?' } })
    const id = opened.id
    const queue = await ctx.call(adminEndpoints.tickets, { token: operator.token, query: { status: 'pending', type: 'consultation', priority: 'medium', pageSize: 100 } })
    expect(queue.items.map((t) => t.id)).toContain(id)
    expect((await ctx.call(adminEndpoints.tickets, { token: operator.token, query: { type: 'other', pageSize: 100 } })).items.map((t) => t.id)).not.toContain(id)

    const replied = await ctx.call(adminEndpoints.replyTicket, { params: { id }, token: operator.token, body: { content: 'Like this.', status: 'processing' }, ip: '198.51.100.7' })
    expect(replied).toMatchObject({ status: 'processing', owner_id: owner.id, owner_name: owner.username, messages: [{ author_kind: 'admin', author_name: null, content: 'Like this.' }] })
    // The owner sees the answer.
    expect((await ctx.call(ticketEndpoints.detail, { params: { id }, token: owner.token })).messages).toHaveLength(1)

    const closed = await ctx.call(adminEndpoints.setTicketStatus, { params: { id }, token: operator.token, body: { status: 'completed' } })
    expect(closed.status).toBe('completed')
    const again = await ctx.refusal(adminEndpoints.setTicketStatus, { params: { id }, token: operator.token, body: { status: 'processing' } })
    expect(again.status).toBe(422)

    const rows = await auditOf(opened.number)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({ actor_kind: 'admin', actor_id: operator.id, actor_name: operator.username, client_ip: '198.51.100.7', action: 'ticket.reply', target_kind: 'ticket' })
    expect(JSON.parse(rows[0]!.before!)).toEqual({ status: 'pending' })
    expect(JSON.parse(rows[0]!.after!)).toMatchObject({ status: 'processing', content: 'Like this.' })
    expect(rows[1]).toMatchObject({ action: 'ticket.status', before: '{"status":"processing"}', after: '{"status":"completed"}' })
  })

  it('approves and denies points-reset requests, once, with their audit rows', async () => {
    const operator = await admin()
    const first = await waitingReset()
    const approve = (id: string) => ({ params: { id }, token: operator.token })
    const approved = await ctx.call(adminEndpoints.approveReset, approve(first.ticketId))
    expect(approved).toEqual({ points_added: 500 })
    expect(await balance(first.user)).toBe(2400)
    expect((await ctx.refusal(adminEndpoints.approveReset, approve(first.ticketId))).status).toBe(422)
    expect((await auditOf(first.number)).map((r) => [r.action, r.after])).toEqual([['points_reset.approve', '{"status":"completed","points_added":500}']])

    const second = await waitingReset()
    const denied = await ctx.call(adminEndpoints.denyReset, { params: { id: second.ticketId }, token: operator.token, body: { content: 'Not this time.' } })
    expect(denied).toMatchObject({ status: 'rejected', messages: [{ author_kind: 'admin', content: 'Not this time.' }] })
    expect(await balance(second.user)).toBe(1900)
    expect((await auditOf(second.number)).map((r) => r.action)).toEqual(['points_reset.deny'])

    // Not a reset request: refused, nothing written.
    const other = await ctx.call(ticketEndpoints.create, { token: second.user.token, body: { type: 'other', title: 't', content: 'c' } })
    expect((await ctx.refusal(adminEndpoints.approveReset, approve(other.id))).status).toBe(422)
    expect(await auditOf(other.number)).toEqual([])
  })

  it('finds users, shows one, changes their type, and never lets an admin change themself', async () => {
    const operator = await admin()
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    for (const q of [user.username.toUpperCase(), `${user.username.toLowerCase()}@example`, user.id]) {
      const found = await ctx.call(adminEndpoints.users, { token: operator.token, query: { q } })
      expect(found.items.map((u) => u.id)).toEqual([user.id])
    }
    expect((await ctx.call(adminEndpoints.users, { token: operator.token, query: { q: '%' } })).total).toBe(0)
    const detail = await ctx.call(adminEndpoints.user, { params: { id: user.id }, token: operator.token })
    expect(detail).toMatchObject({ user: { id: user.id }, points: { balance: 2400 }, api_keys: [], tickets: { total: 0 } })
    expect(detail.ledger.items.length).toBeGreaterThan(0)
    expect((await ctx.refusal(adminEndpoints.user, { params: { id: '999' }, token: operator.token })).status).toBe(404)
    // A user without a package still has a page.
    expect(await ctx.call(adminEndpoints.user, { params: { id: operator.id }, token: operator.token })).toMatchObject({ points: { balance: 0, package: null }, ledger: { total: 0 } })

    const typed = await ctx.call(adminEndpoints.setUserType, { params: { id: user.id }, token: operator.token, body: { user_type: 'vip' } })
    expect(typed.user_type).toBe('vip')
    expect((await userRow(user.id)).user_type).toBe('vip')
    expect((await auditOf(user.username)).map((r) => [r.action, r.before, r.after])).toEqual([['user.type', '{"user_type":"normal"}', '{"user_type":"vip"}']])

    const self = { params: { id: operator.id }, token: operator.token }
    expect((await ctx.refusal(adminEndpoints.setUserType, { ...self, body: { user_type: 'normal' } })).status).toBe(422)
    expect((await ctx.refusal(adminEndpoints.setUserStatus, { ...self, body: { status: 'disabled' } })).status).toBe(422)
    expect(await auditOf(operator.username)).toEqual([])
  })

  it("disables a user: their session, client tokens and API keys stop working; enabling restores them", async () => {
    const operator = await admin()
    const user = await quickUser(ctx)
    const key = (await ctx.call(apiKeyEndpoints.create, { token: user.token, body: { name: 'k' } })).key
    const oauth = (await codeFlowTokens(ctx, user.token, await registerClient(ctx))).access_token
    const works = async () => ({
      session: (await ctx.outcome(accountEndpoints.info, { token: user.token })).status,
      oauth: (await ctx.outcome(accountEndpoints.info, { token: oauth })).status,
      key: (await authenticateApiKey(ctx.relay.db, key, ctx.clock)) !== null,
    })
    expect(await works()).toEqual({ session: 200, oauth: 200, key: true })

    const setStatus = (status: 'disabled' | 'active') => ctx.call(adminEndpoints.setUserStatus, { params: { id: user.id }, token: operator.token, body: { status } })
    expect((await setStatus('disabled')).status).toBe('disabled')
    expect(await works()).toEqual({ session: 401, oauth: 401, key: false })
    expect((await setStatus('active')).status).toBe('active')
    expect(await works()).toEqual({ session: 200, oauth: 200, key: true })
    expect((await auditOf(user.username)).map((r) => r.action)).toEqual(['user.disable', 'user.enable'])
  })

  it("disables three of a user's keys at once with one audit row each, leaves the fourth, and refuses another user's key", async () => {
    const operator = await admin()
    const user = await quickUser(ctx)
    const other = await quickUser(ctx)
    const create = (owner: PointsUser, name: string) => ctx.call(apiKeyEndpoints.create, { token: owner.token, body: { name } })
    const keys = [await create(user, 'a'), await create(user, 'b'), await create(user, 'c'), await create(user, 'd')]
    const foreign = await create(other, 'x')
    const state = async (key: string) => authenticateApiKey(ctx.relay.db, key, ctx.clock).then(() => 'live', (error: { reason?: string }) => error.reason)
    const chosen = keys.slice(0, 3).map((key) => key.id)

    // Someone else's key in the batch: nothing changes.
    const switching = (key_ids: string[], enabled: boolean) => ({ params: { id: user.id }, token: operator.token, body: { key_ids, enabled } })
    const mixed = await ctx.refusal(adminEndpoints.setUserKeys, switching([...chosen, foreign.id], false))
    expect(mixed.status).toBe(404)
    expect(await Promise.all(keys.map((key) => state(key.key)))).toEqual(['live', 'live', 'live', 'live'])

    const disabled = await ctx.call(adminEndpoints.setUserKeys, { ...switching(chosen, false), ip: '198.51.100.9' })
    expect(disabled).toEqual({ changed: 3 })
    expect(await Promise.all(keys.map((key) => state(key.key)))).toEqual(['api_key_disabled', 'api_key_disabled', 'api_key_disabled', 'live'])
    const rows = await ctx.relay.db.selectFrom('audit_log').selectAll().where('target_kind', '=', 'api_key').orderBy('target_ref').execute()
    expect(rows.map((row) => ({ action: row.action, ref: row.target_ref, actor: row.actor_name, ip: row.client_ip, after: JSON.parse(row.after!) }))).toEqual(
      keys.slice(0, 3).map((key, i) => ({ action: 'api_key.disable', ref: key.id, actor: operator.username, ip: '198.51.100.9', after: { name: 'abc'[i], enabled: false } })),
    )
    // The owner sees the switch off on their own page.
    const listed = (await ctx.call(apiKeyEndpoints.list, { token: user.token })).items
    expect(listed.filter((key) => !key.limits.enabled).map((key) => key.id).sort()).toEqual([...chosen].sort())

    // Again (a reload): nothing more changes and no row is added; enabling restores them.
    expect(await ctx.call(adminEndpoints.setUserKeys, switching(chosen, false))).toEqual({ changed: 0 })
    expect(await ctx.call(adminEndpoints.setUserKeys, switching(chosen, true))).toEqual({ changed: 3 })
    expect(await Promise.all(keys.map((key) => state(key.key)))).toEqual(['live', 'live', 'live', 'live'])
    expect(await ctx.relay.db.selectFrom('audit_log').select('action').where('target_kind', '=', 'api_key').execute()).toHaveLength(6)
  })

  it('grants and deducts points with a reason, never below zero, exactly once per form key', async () => {
    const operator = await admin()
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const adjusting = (id: string, body: PartInput<typeof adminEndpoints.adjustPoints, 'body'>, idempotencyKey?: string) => ({ params: { id }, token: operator.token, body, idempotencyKey })
    const adjust = (body: PartInput<typeof adminEndpoints.adjustPoints, 'body'>, key?: string) => ctx.call(adminEndpoints.adjustPoints, adjusting(user.id, body, key))
    const key = 'grant-form-key-0001'
    expect(await adjust({ direction: 'grant', amount: 100, reason: 'goodwill' }, key)).toEqual({ balance: 2500 })
    expect(await adjust({ direction: 'grant', amount: 100, reason: 'goodwill' }, key)).toEqual({ balance: 2500 })
    expect(await balance(user)).toBe(2500)
    expect(await adjust({ direction: 'deduct', amount: 500, reason: 'abuse' })).toEqual({ balance: 2000 })
    const tooMuch = await ctx.refusal(adminEndpoints.adjustPoints, adjusting(user.id, { direction: 'deduct', amount: 2001, reason: 'abuse' }))
    expect(tooMuch.status).toBe(422)
    expect(tooMuch.reason).toBe('points_insufficient')
    expect(await balance(user)).toBe(2000)

    const history = (await ctx.call(pointsEndpoints.history, { token: user.token })).items
    expect(history.slice(0, 2)).toMatchObject([{ change: -500, reason: 'abuse' }, { change: 100, reason: 'goodwill' }])
    const rows = await auditOf(user.username)
    expect(rows.map((r) => [r.action, JSON.parse(r.before!), JSON.parse(r.after!)])).toEqual([
      ['points.grant', { balance: 2400 }, { balance: 2500, change: 100, reason: 'goodwill' }],
      ['points.deduct', { balance: 2500 }, { balance: 2000, change: -500, reason: 'abuse' }],
    ])

    const nobody = await quickUser(ctx)
    const refused = await ctx.refusal(adminEndpoints.adjustPoints, adjusting(nobody.id, { direction: 'grant', amount: 1, reason: 'x' }))
    expect(refused.status).toBe(422)
    expect(await auditOf(nobody.username)).toEqual([])
  })

  it('records the CLI as the OS user, and filters the audit log by actor, action, target and day', async () => {
    const operator = await admin()
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    expect((await runOperatorCli(ctx, 'points', 'grant', '--user', user.username, '--amount', '7', '--reason', 'cli grant')).code).toBe(0)
    expect((await runOperatorCli(ctx, 'points', 'deduct', '--user', user.username, '--amount', '2', '--reason', 'cli deduct')).code).toBe(0)
    expect((await runOperatorCli(ctx, 'user', 'disable', user.username)).code).toBe(0)
    expect((await runOperatorCli(ctx, 'user', 'enable', user.username)).code).toBe(0)
    expect((await runOperatorCli(ctx, 'user', 'set-type', user.username, '--type', 'vip')).code).toBe(0)
    await ctx.call(adminEndpoints.setUserType, { params: { id: user.id }, token: operator.token, body: { user_type: 'normal' } })
    const rows = await auditOf(user.username)
    expect(rows.map((r) => [r.actor_kind, r.action])).toEqual([
      ['cli', 'points.grant'],
      ['cli', 'points.deduct'],
      ['cli', 'user.disable'],
      ['cli', 'user.enable'],
      ['cli', 'user.type'],
      ['admin', 'user.type'],
    ])
    const cliName = rows[0]!.actor_name
    expect(cliName).not.toBe('')
    expect(rows[0]).toMatchObject({ actor_id: null, client_ip: null })

    const audit = (query: PartInput<typeof adminEndpoints.audit, 'query'>) => ctx.call(adminEndpoints.audit, { token: operator.token, query: { target: user.username, ...query } })
    expect((await audit({})).items.map((r) => r.action)).toEqual(rows.map((r) => r.action).reverse())
    expect((await audit({ actor: operator.username.toUpperCase() })).total).toBe(1)
    expect((await audit({ actor: cliName })).total).toBe(5)
    expect((await audit({ action: 'user.type' })).total).toBe(2)
    const today = new Date(ctx.clock.now()).toISOString().slice(0, 10)
    const tomorrow = new Date(ctx.clock.now() + 86_400_000).toISOString().slice(0, 10)
    expect((await audit({ from: today, to: today })).total).toBe(6)
    expect((await audit({ from: tomorrow })).total).toBe(0)
    expect(await audit({ pageSize: 2, page: 2 })).toMatchObject({ total: 6, page: 2, items: [{ action: 'user.enable' }, { action: 'user.disable' }] })
  })

  it('generates a batch once per form key, lists codes by state, revokes an unused one, and a revoked code no longer redeems', async () => {
    const operator = await admin()
    const generating = (body: PartInput<typeof adminEndpoints.generateCodes, 'body'>, idempotencyKey?: string) => ({ token: operator.token, body, idempotencyKey })
    const key = 'codes-form-key-00001'
    const first = await ctx.call(adminEndpoints.generateCodes, generating({ package_code: 'PERSONAL', count: 3, expires_days: 30 }, key))
    expect(first.codes).toHaveLength(3)
    expect(await ctx.call(adminEndpoints.generateCodes, generating({ package_code: 'PERSONAL', count: 3, expires_days: 30 }, key))).toEqual(first)
    const batch = first.batch_id
    expect((await ctx.refusal(adminEndpoints.generateCodes, generating({ package_code: 'TEAM', count: 1 }))).status).toBe(422)
    expect((await ctx.refusal(adminEndpoints.generateCodes, generating({ package_code: 'NOPE', count: 1 }))).status).toBe(404)

    const list = (query: PartInput<typeof adminEndpoints.redeemCodes, 'query'>) => ctx.call(adminEndpoints.redeemCodes, { token: operator.token, query: { batch, ...query } })
    const listed = await list({})
    expect(listed.total).toBe(3)
    expect(listed.items.every((c) => c.state === 'unused' && c.package_code === 'PERSONAL')).toBe(true)
    // Raw: the bytes sent, where a field the reply's schema drops would still show.
    const listedText = (await ctx.request('GET', adminEndpoints.redeemCodes.path, { token: operator.token, query: { batch } })).text
    expect(listedText).not.toContain(first.codes[0]!.replaceAll('-', ''))

    // One is redeemed, one revoked.
    const user = await quickUser(ctx)
    const redeeming = (code: string) => ({ token: user.token, body: { redeem_code: code } })
    await ctx.call(subscriptionEndpoints.redeemCode, redeeming(first.codes[0]!))
    const unused = (await list({ state: 'unused' })).items
    expect(unused).toHaveLength(2)
    const revoke = (id: string) => ({ params: { id }, token: operator.token })
    await ctx.call(adminEndpoints.revokeCode, revoke(unused[0]!.id))
    expect((await ctx.refusal(adminEndpoints.revokeCode, revoke(unused[0]!.id))).status).toBe(422)
    const used = (await list({ state: 'used' })).items
    expect(used).toMatchObject([{ used_by: user.id, used_by_name: user.username }])
    expect((await ctx.refusal(adminEndpoints.revokeCode, revoke(used[0]!.id))).status).toBe(422)
    expect((await list({ state: 'revoked' })).items.map((c) => c.id)).toEqual([unused[0]!.id])

    // Which code was revoked is known only by id: try every remaining code; exactly one still redeems.
    const outcomes = await Promise.all(first.codes.slice(1).map(async (code) => (await ctx.outcome(subscriptionEndpoints.redeemCode, redeeming(code))).status))
    expect(outcomes.sort()).toEqual([200, 422].sort())
    ctx.clock.advance(31 * 86_400_000)
    expect((await list({ state: 'expired' })).total).toBe(0)

    expect((await runOperatorCli(ctx, 'codes', 'create', '--package', 'PERSONAL', '--count', '1', '--expires-days', '1')).code).toBe(0)
    const batches = await ctx.relay.db.selectFrom('audit_log').selectAll().where('action', '=', 'redeem_codes.generate').orderBy('id').execute()
    expect(batches.filter((r) => r.target_ref === batch)).toMatchObject([{ actor_kind: 'admin', actor_id: operator.id, after: '{"package":"PERSONAL","count":3,"expires_days":30}' }])
    expect(batches.at(-1)).toMatchObject({ actor_kind: 'cli', target_kind: 'redeem_batch' })
    expect(await auditOf(unused[0]!.id)).toMatchObject([{ action: 'redeem_code.revoke', before: '{"state":"unused"}', after: '{"state":"revoked"}' }])
  })
})
