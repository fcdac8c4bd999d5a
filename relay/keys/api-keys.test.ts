import { accountEndpoints } from '../contract/accounts.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { expect, it } from 'vitest'
import { apiKeyBounds, apiKeyEndpoints } from '../contract/api-keys.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens, registerClient } from '../../tests/fixtures/oauth.ts'
import { makeCodes } from '../../tests/fixtures/points.ts'
import { noKeyLimits } from '../../tests/fixtures/proxy.ts'
import { authenticateApiKey } from './service.ts'

describeEachDatabase('API keys', (ctx) => {
  const create = (token: string, name: string) => ctx.call(apiKeyEndpoints.create, { token, body: { name } })
  const createRefused = (token: string, name: string) => ctx.refusal(apiKeyEndpoints.create, { token, body: { name } })
  const list = (token: string) => ctx.call(apiKeyEndpoints.list, { token })
  const listRefused = (token: string) => ctx.refusal(apiKeyEndpoints.list, { token })
  const remove = (token: string, id: string) => ctx.call(apiKeyEndpoints.delete, { params: { id }, token })
  const removeRefused = (token: string, id: string) => ctx.refusal(apiKeyEndpoints.delete, { params: { id }, token })
  const usage = (headers: Record<string, string>) => ctx.call(apiKeyEndpoints.usage, { headers })
  const usageRefused = (headers: Record<string, string>) => ctx.refusal(apiKeyEndpoints.usage, { headers })

  it('returns the full key once, then only its masked form', async () => {
    const { login } = await ctx.signUp()
    const created = await create(login.access_token, '  laptop  ')
    const key = created.key
    expect(key).toMatch(/^sk-relay-[0-9A-Za-z]{40}$/)
    expect(created).toMatchObject({ name: 'laptop', masked_key: `sk-relay-********${key.slice(-4)}`, last_used_timestamp: null })
    expect(created.create_timestamp).toBe(ctx.clock.now())

    // Raw: the test reads the whole answer on the wire for the key's secret.
    const listed = await ctx.request('GET', apiKeyEndpoints.list.path, { token: login.access_token })
    expect(listed.body.data).toEqual({
      items: [
        {
          id: created.id,
          name: 'laptop',
          masked_key: created.masked_key,
          create_timestamp: ctx.clock.now(),
          last_used_timestamp: null,
          limits: noKeyLimits,
          use: { points_used: 0, day_points_used: 0, minute_calls: 0, in_flight: 0 },
        },
      ],
      limit: apiKeyBounds.perUser,
    })
    // Nothing after the create reply carries the secret part of the key, nor does the database.
    const secret = key.slice('sk-relay-'.length, -4)
    expect(listed.text).not.toContain(secret)
    const rows = await ctx.relay.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).execute()
    expect(JSON.stringify(rows)).not.toContain(secret)
  })

  it('authenticates /api/v1/usage with a key by either header, never with a login token, and stops at once on delete', async () => {
    const { login, username } = await ctx.signUp()
    const created = await create(login.access_token, 'cli')
    const key = created.key

    const byBearer = await usage({ authorization: `Bearer ${key}` })
    expect(byBearer).toEqual({
      key: { id: created.id, name: 'cli' },
      client_id: null,
      user: { username, user_type: 'normal' },
      points: null,
      subscription: null,
    })
    await usage({ 'x-api-key': key })

    // The access token that created the key is not an API key.
    const byJwt = await usageRefused({ authorization: `Bearer ${login.access_token}` })
    expect(byJwt.status).toBe(401)
    expect(byJwt.reason).toBe('unauthenticated')
    expect((await usageRefused({})).status).toBe(401)
    expect((await usageRefused({ 'x-api-key': `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}` })).status).toBe(401)

    await remove(login.access_token, created.id)
    expect((await usageRefused({ 'x-api-key': key })).status).toBe(401)
    expect(await authenticateApiKey(ctx.relay.db, key, ctx.clock)).toBeNull()
    expect((await list(login.access_token)).items).toEqual([])
    // Deleting twice: the key is gone.
    expect((await removeRefused(login.access_token, created.id)).status).toBe(404)
  })

  it('records the last use at most once a minute, so authentication is a read', async () => {
    const { login } = await ctx.signUp()
    const created = await create(login.access_token, 'status bar')
    const key = created.key
    const first = ctx.clock.now()
    expect(await authenticateApiKey(ctx.relay.db, key, ctx.clock)).toMatchObject({ keyId: created.id, userId: login.user.id })
    ctx.clock.advance(59_000)
    await authenticateApiKey(ctx.relay.db, key, ctx.clock)
    expect((await list(login.access_token)).items[0]?.last_used_timestamp).toBe(first)
    ctx.clock.advance(1_000)
    await authenticateApiKey(ctx.relay.db, key, ctx.clock)
    expect((await list(login.access_token)).items[0]?.last_used_timestamp).toBe(first + 60_000)
  })

  it("gives 404 to another user's key id and changes nothing", async () => {
    const owner = await ctx.signUp()
    const other = await ctx.signUp()
    const created = await create(owner.login.access_token, 'mine')
    const refused = await removeRefused(other.login.access_token, created.id)
    expect(refused.status).toBe(404)
    expect(refused.reason).toBe('not_found')
    expect((await list(other.login.access_token)).items).toEqual([])
    expect((await list(owner.login.access_token)).items.map((k) => k.id)).toEqual([created.id])
    await usage({ 'x-api-key': created.key })
    // An id that exists nowhere reads the same.
    expect((await removeRefused(other.login.access_token, '123456789012345678')).status).toBe(404)
    // The largest 64-bit id is an id like any other; one past it, or 20 digits, is not an id at all.
    expect((await removeRefused(other.login.access_token, '9223372036854775807')).status).toBe(404)
    for (const id of ['9223372036854775808', '99999999999999999999', '-1']) {
      expect((await removeRefused(other.login.access_token, id)).status, id).toBe(400)
    }
  })

  it('validates the name and keeps the per-user limit under parallel creates', async () => {
    const { login } = await ctx.signUp()
    const blank = await createRefused(login.access_token, '   ')
    expect(blank.status).toBe(400)
    expect(Object.keys(blank.details?.fields ?? {})).toEqual(['name'])
    expect((await createRefused(login.access_token, 'x'.repeat(apiKeyBounds.name.max + 1))).status).toBe(400)

    const replies = await Promise.all(
      Array.from({ length: apiKeyBounds.perUser + 5 }, (_, i) => ctx.outcome(apiKeyEndpoints.create, { token: login.access_token, body: { name: `key ${i}` } })),
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(apiKeyBounds.perUser)
    const refused = replies.filter((r) => r.status !== 200)
    expect(refused.map((r) => [r.status, r.error?.reason])).toEqual(Array(5).fill([422, 'api_key_limit']))
    expect((await list(login.access_token)).items).toHaveLength(apiKeyBounds.perUser)

    // Deleting one makes room again.
    const [first] = (await list(login.access_token)).items
    await remove(login.access_token, first!.id)
    await create(login.access_token, 'again')
  })

  it("reports the owner's balance, refill and subscription once they hold a package", async () => {
    const { login } = await ctx.signUp()
    const key = (await create(login.access_token, 'status bar')).key
    const [code] = await makeCodes(ctx, 'PERSONAL')
    await ctx.call(subscriptionEndpoints.redeemCode, { token: login.access_token, body: { redeem_code: code! } })
    const points = await ctx.call(pointsEndpoints.points, { token: login.access_token })
    const reply = await usage({ authorization: `Bearer ${key}` })
    expect(reply.points).toEqual({
      balance: points.balance,
      limit: points.points_limit,
      hour_points: points.hour_points,
      next_refill_timestamp: points.next_refill_timestamp,
      forecast: points.forecast,
    })
    expect(reply.points?.balance).toBeGreaterThan(0)
    expect(reply.subscription).toEqual({ status: 'normal', package_name: points.package?.name, end_timestamp: points.end_timestamp })
  })

  it("refuses a client's delegated token: only a portal login manages keys", async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const delegated = await codeFlowTokens(ctx, login.access_token, client, 'profile api billing')
    for (const refused of [
      await listRefused(delegated.access_token),
      await createRefused(delegated.access_token, 'escalation'),
      await removeRefused(delegated.access_token, '123456789012345678'),
    ]) {
      expect(refused.status).toBe(403)
      expect(refused.reason).toBe('insufficient_scope')
    }
    expect((await list(login.access_token)).items).toEqual([])
  })

  it('requires a login for the key calls', async () => {
    expect((await ctx.refusal(apiKeyEndpoints.list)).status).toBe(401)
    expect((await ctx.refusal(apiKeyEndpoints.create, { body: { name: 'x' } })).status).toBe(401)
    expect((await ctx.refusal(accountEndpoints.info)).status).toBe(401)
  })

  it('stops authenticating the keys of a disabled user', async () => {
    const { login } = await ctx.signUp()
    const key = (await create(login.access_token, 'k')).key
    await ctx.relay.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', login.user.id).execute()
    expect((await usageRefused({ 'x-api-key': key })).status).toBe(401)
  })
})
