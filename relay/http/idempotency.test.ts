/**
 * Exactly-once creating calls (idempotency.ts): each creating call sent twice, or many times at
 * once across two relays sharing one database, acts once and answers every copy the first reply.
 */
import { accountEndpoints } from '../contract/accounts.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { teamEndpoints } from '../contract/teams.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fillPath } from '../contract/paths.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeCodes, makeTeam, quickUser, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { startTestRelay, type RequestOptions, type TestRelay } from '../../tests/fixtures/relay-harness.ts'
import { spend } from '../points/ledger.ts'
import { idempotencyKeepMs } from './idempotency.ts'
import { elapse } from '../../tests/fixtures/time.ts'

const newKey = () => randomBytes(16).toString('base64url')

describe.each(databaseKinds())('idempotent creating calls (%s)', (kind) => {
  let database: TestDatabase
  // Two relays on one database, as several relay processes share one PostgreSQL.
  let a: TestRelay
  let b: TestRelay
  beforeAll(async () => {
    database = await createTestDatabase(kind)
    a = await startTestRelay(database)
    b = await startTestRelay(database)
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await database?.dispose()
  })

  const post = (relay: TestRelay, path: string, token: string | undefined, body: unknown, key?: string, extra: RequestOptions = {}) =>
    relay.request('POST', path, { token, body, headers: key ? { 'idempotency-key': key } : {}, ...extra })
  const keyCount = async (user: PointsUser) =>
    (await a.relay.db.selectFrom('api_keys').select('id').where('user_id', '=', user.id).execute()).length

  it('a repeated API key create answers the first key again, secret included, and creates nothing', async () => {
    const user = await quickUser(a)
    const key = newKey()
    const first = await post(a, apiKeyEndpoints.create.path, user.token, { name: 'laptop' }, key)
    const again = await post(a, apiKeyEndpoints.create.path, user.token, { name: 'laptop' }, key)
    expect(first.status).toBe(200)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body.data).toEqual(first.body.data)
    expect(await keyCount(user)).toBe(1)

    // The kept reply is sealed: the database alone does not give the key away.
    const secret: string = first.body.data.key.slice('sk-relay-'.length, -4)
    const rows = await a.relay.db.selectFrom('idempotent_requests').selectAll().where('user_id', '=', user.id).execute()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(secret)

    // A new key is a new intention; without a key every call acts.
    expect((await post(a, apiKeyEndpoints.create.path, user.token, { name: 'laptop' }, newKey())).status).toBe(200)
    expect((await post(a, apiKeyEndpoints.create.path, user.token, { name: 'laptop' })).status).toBe(200)
    expect(await keyCount(user)).toBe(3)
  })

  it('twelve concurrent copies on two relays create one key; every copy gets it', async () => {
    const user = await quickUser(a)
    const key = newKey()
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 === 0 ? a : b, apiKeyEndpoints.create.path, user.token, { name: 'race' }, key)),
    )
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200))
    expect(new Set(replies.map((r) => r.body.data.key)).size).toBe(1)
    expect(replies.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1)
    expect(await keyCount(user)).toBe(1)
  })

  it('copies 50 ms apart on the other relay get the first reply', async () => {
    const user = await quickUser(a)
    const key = newKey()
    const first = post(a, ticketEndpoints.list.path, user.token, { type: 'consultation', priority: 'low', title: 'Two submits', content: 'Fifty ms apart' }, key)
    await elapse(50)
    const second = post(b, ticketEndpoints.list.path, user.token, { type: 'consultation', priority: 'low', title: 'Two submits', content: 'Fifty ms apart' }, key)
    const [one, two] = await Promise.all([first, second])
    expect(one.status).toBe(200)
    expect(two.body.data.id).toBe(one.body.data.id)
    const tickets = await a.relay.db.selectFrom('tickets').select('id').where('user_id', '=', user.id).execute()
    expect(tickets).toHaveLength(1)
  })

  it('every creating call acts once per key: ticket, reply, redeem, team join, points reset', async () => {
    const user = await quickUser(a)
    const twice = async (path: string, body: unknown) => {
      const key = newKey()
      const first = await post(a, path, user.token, body, key)
      const again = await post(b, path, user.token, body, key)
      expect(first.status, first.text).toBe(200)
      expect(again.status, again.text).toBe(200)
      expect(again.body.data).toEqual(first.body.data)
      return first.body.data
    }
    const count = async (table: 'tickets' | 'ticket_messages' | 'subscriptions' | 'team_members' | 'points_resets', column = 'user_id') =>
      (await a.relay.db.selectFrom(table).select('id').where(column as 'id', '=', user.id).execute()).length

    const ticket = await twice(ticketEndpoints.list.path, { type: 'other', priority: 'medium', title: 'Once', content: 'Only once' })
    expect(await count('tickets')).toBe(1)
    const messagesBefore = await count('ticket_messages', 'author_id')
    await twice(fillPath(ticketEndpoints.reply.path, { id: ticket.id }), { content: 'A reply' })
    expect(await count('ticket_messages', 'author_id')).toBe(messagesBefore + 1)

    const [code] = await makeCodes(a, 'PERSONAL')
    await twice(subscriptionEndpoints.redeemCode.path, { redeem_code: code })
    expect(await count('subscriptions')).toBe(1)

    // Spend some points so a reset has something to do, then ask twice.
    await spend(servicesOf(a), { userId: user.id, amount: 500, model: null })
    const reset = await twice(pointsEndpoints.resetTicket.path, { reason: 'other', description: 'Once please' })
    expect(reset).toMatchObject({ auto_approved: true, points_added: 500 })
    expect(await count('points_resets')).toBe(1)
    await expectLedgerInvariants(a.relay.db)

    const joiner = await quickUser(a)
    const teamCode = await makeTeam(a, await quickUser(a))
    const key = newKey()
    const joined = await post(a, teamEndpoints.join.path, joiner.token, { team_code: teamCode }, key)
    const joinedAgain = await post(b, teamEndpoints.join.path, joiner.token, { team_code: teamCode }, key)
    expect(joined.status, joined.text).toBe(200)
    // Without the key this would be `already_in_team`.
    expect(joinedAgain.status, joinedAgain.text).toBe(200)
    expect(joinedAgain.body.data).toEqual(joined.body.data)
  })

  it('a password-reset code is mailed once per key, and a repeated reset answers success', async () => {
    const account = await a.signUp()
    const key = newKey()
    const ip = a.uniqueIp()
    // Past the per-address minute the registration code used.
    a.clock.advance(61_000)
    const before = a.smtp.messages(account.email).length
    const sent = await post(a, accountEndpoints.sendResetCode.path, undefined, { email: account.email }, key, { ip })
    const resent = await post(a, accountEndpoints.sendResetCode.path, undefined, { email: account.email }, key, { ip })
    // The address may be sent one code a minute: a second run of the handler would have answered
    // 429, so two 200s mean the copy was answered from the first, which mailed once.
    expect([sent.status, resent.status]).toEqual([200, 200])
    await vi.waitFor(() => expect(a.smtp.messages(account.email)).toHaveLength(before + 1))

    const resetKey = newKey()
    const body = { email: account.email, code: a.lastCode(account.email), new_password: 'another horse battery', confirm_password: 'another horse battery' }
    const reset = await post(a, accountEndpoints.resetPassword.path, undefined, body, resetKey, { ip })
    const resetAgain = await post(a, accountEndpoints.resetPassword.path, undefined, body, resetKey, { ip })
    expect(reset.status, reset.text).toBe(200)
    // The code is used up: without the key this would be `code_invalid`.
    expect(resetAgain.status, resetAgain.text).toBe(200)
    // Another key is another attempt, and the code is spent.
    expect((await post(a, accountEndpoints.resetPassword.path, undefined, body, newKey(), { ip })).body.error.details.reason).toBe('code_invalid')
  })

  it('a key sent again with a different request is refused and creates nothing', async () => {
    const user = await quickUser(a)
    const key = newKey()
    expect((await post(a, apiKeyEndpoints.create.path, user.token, { name: 'one' }, key)).status).toBe(200)
    const other = await post(b, apiKeyEndpoints.create.path, user.token, { name: 'two' }, key)
    expect(other.status).toBe(422)
    expect(other.body.error.details.reason).toBe('idempotency_key_reused')
    expect(await keyCount(user)).toBe(1)
  })

  it('keys belong to their caller: the same key from two users acts for each', async () => {
    const [one, two] = [await quickUser(a), await quickUser(a)]
    const key = newKey()
    const first = await post(a, apiKeyEndpoints.create.path, one.token, { name: 'shared' }, key)
    const second = await post(a, apiKeyEndpoints.create.path, two.token, { name: 'shared' }, key)
    expect(second.headers.get('idempotent-replayed')).toBeNull()
    expect(second.body.data.key).not.toBe(first.body.data.key)
    expect([await keyCount(one), await keyCount(two)]).toEqual([1, 1])
  })

  it('a refused first request lets go of its key: the repeat runs afresh', async () => {
    const user = await quickUser(a)
    const ticket = await post(a, ticketEndpoints.list.path, user.token, { type: 'other', priority: 'low', title: 'Closed', content: 'x' })
    const id: string = ticket.body.data.id
    await post(a, fillPath(ticketEndpoints.close.path, { id }), user.token, {})
    const key = newKey()
    const refused = await post(a, fillPath(ticketEndpoints.reply.path, { id }), user.token, { content: 'late' }, key)
    expect(refused.body.error.details.reason).toBe('ticket_closed')
    await post(a, fillPath(ticketEndpoints.reopen.path, { id }), user.token, {})
    const accepted = await post(b, fillPath(ticketEndpoints.reply.path, { id }), user.token, { content: 'late' }, key)
    expect(accepted.status, accepted.text).toBe(200)
    expect(accepted.headers.get('idempotent-replayed')).toBeNull()
  })

  it('refuses a malformed key, and forgets replies after a day', async () => {
    const user = await quickUser(a)
    const bad = await post(a, apiKeyEndpoints.create.path, user.token, { name: 'bad' }, 'short')
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.fields).toHaveProperty('Idempotency-Key')
    expect(await keyCount(user)).toBe(0)

    const key = newKey()
    await post(a, apiKeyEndpoints.create.path, user.token, { name: 'old' }, key)
    a.clock.advance(idempotencyKeepMs + 60_000)
    const later = await post(a, apiKeyEndpoints.create.path, user.token, { name: 'old' }, key)
    expect(later.headers.get('idempotent-replayed')).toBeNull()
    expect(await keyCount(user)).toBe(2)
    a.clock.set(b.clock.now())
  })

  it('documents the header on every creating call', async () => {
    const document = (await a.request('GET', '/api/openapi.json')).body
    const header = (path: string) =>
      (document.paths[path].post.parameters ?? []).find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key')
    for (const path of [apiKeyEndpoints.create.path, ticketEndpoints.list.path, ticketEndpoints.reply.path, subscriptionEndpoints.redeemCode.path, teamEndpoints.join.path, pointsEndpoints.resetTicket.path, accountEndpoints.sendResetCode.path, accountEndpoints.resetPassword.path]) {
      expect(header(path), path).toBeDefined()
    }
  })
})
