/**
 * The money rules are written twice: in TypeScript (points/ledger.ts, entries.ts, catch-up.ts,
 * proxy/settlements.ts), which SQLite runs, and in PostgreSQL's functions (relay_freeze.sql and
 * relay_settle.sql beside this file, proxy/relay_settle_calls*.sql), which PostgreSQL runs on a
 * call's path (docs/money.md). One scripted history is driven through the relay's real services on
 * both databases, and everything money leaves behind must come out the same: accounts, ledger rows,
 * holds, day rows, call records, key and member counters, ids and the like mapped to their order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { dayStart, dayOf } from '../contract/days.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { teamEndpoints } from '../contract/teams.ts'
import type { Database } from '../db/open-database.ts'
import { describeOnPostgres, createTestDatabase, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeBehaviour, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeCodes, makeTeam, quickUser, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { addTestProvider, callRelay, customer, priceModel, type Customer } from '../../tests/fixtures/proxy.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'
import { createPackage } from '../subscriptions/packages.ts'
import { releaseStaleHolds } from '../proxy/stale-holds.ts'
import { freeze, settle } from './ledger.ts'

const minute = 60_000
const hour = 60 * minute
const fixed = { model: 'fixed-model', kind: 'fixed', points_per_call: 5 } as const
// The fake's usage (120 in, 40 out) costs 12 + 20 points.
const variable = { model: 'var-model', kind: 'variable', input_points_per_mtok: 100_000, output_points_per_mtok: 500_000 } as const

/** The history, step by step; every step waits for what it wrote, so both databases see one order of events. */
async function history(ctx: TestRelay, provider: FakeProvider): Promise<void> {
  // 22:00 in UTC+8: the history runs over a midnight of the relay's day.
  ctx.clock.set(dayStart(dayOf(Date.UTC(2026, 2, 10))) - 2 * hour)
  const services = servicesOf(ctx)
  await priceModel(ctx, fixed)
  await priceModel(ctx, variable)
  await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['fixed-*', 'var-*'] })
  await createPackage(ctx.relay.db, ctx.clock.now(), { code: 'TOPUP50', name: 'top-up', kind: 'topup', points_limit: 50 })

  const call = async (user: Customer, model: string, behaviour?: FakeBehaviour, extra: Record<string, unknown> = {}) => {
    if (behaviour) provider.queue(behaviour)
    const before = await callsOf(ctx.relay.db, user.id)
    const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }], ...extra } })
    await response.text()
    // Recorded once its settlement is written (proxy/settlements.ts).
    await expect.poll(() => callsOf(ctx.relay.db, user.id), { timeout: 10_000, interval: 10 }).toBe(before + 1)
    return response.status
  }
  const redeem = async (user: PointsUser, packageCode: string) => {
    const [code] = await makeCodes(ctx, packageCode)
    await ctx.call(subscriptionEndpoints.redeemCode, { token: user.token, body: { redeem_code: code! } })
  }

  // A personal plan with hourly refills, its key under quotas (calls take leases, counters count).
  const alice = await customer(ctx, 200, 10)
  const limits = { enabled: true, expires_timestamp: null, points_quota: 10_000, daily_points_quota: 5_000, allowed_models: null, rpm_limit: null, concurrency_limit: null }
  await ctx.call(apiKeyEndpoints.limits, { params: { id: alice.keyId }, token: alice.token, body: limits })
  // A small plan that runs short.
  const bob = await customer(ctx, 45)
  // A team pool: its owner, and a member with caps whose personal plan the join ends.
  const owner = await quickUser(ctx)
  const teamCode = await makeTeam(ctx, owner)
  const dave = await customer(ctx, 60)
  await ctx.call(teamEndpoints.join, { token: dave.token, body: { team_code: teamCode } })
  await ctx.call(teamEndpoints.setMemberCaps, { params: { id: dave.id }, token: owner.token, body: { hourly_points_cap: 400, daily_points_cap: 900 } })
  const erin = await customer(ctx, 100)

  ctx.clock.advance(minute)
  await call(alice, 'fixed-model')
  await call(alice, 'var-model')
  await call(alice, 'var-model', undefined, { stream: true })
  // The provider fails: the hold comes back whole.
  await call(alice, 'var-model', { kind: 'fail', status: 500 })
  await call(alice, 'var-model', { kind: 'answer', usage: { input_tokens: 300, output_tokens: 60, cache_read_tokens: 0, cache_write_tokens: 0 } })
  // 45 points: a call, then one that costs more than is left (charged what is left), then a refusal.
  await call(bob, 'var-model')
  await call(bob, 'var-model')
  await call(bob, 'fixed-model')
  await call(dave, 'var-model')
  await call(dave, 'fixed-model')

  // A call frozen before the relay's midnight and settled after it: its history line moves day.
  ctx.clock.set(dayStart(dayOf(ctx.clock.now()) + 1) - 10_000)
  const late = await freeze(services, { userId: alice.id, amount: 20, model: 'var-model' })
  ctx.clock.advance(20_000)
  await settle(services, { holdId: late.holdId, actual: 7 })

  // Hours later: refills are due, and the freeze takes the ledger's full path.
  ctx.clock.advance(3 * hour + 5 * minute)
  await call(alice, 'var-model')
  await call(dave, 'var-model')

  // A relay lost mid-call: its hold stays open until the stale-hold sweep gives it back.
  await freeze({ ...services, config: { instance: 'lost-relay' } }, { userId: alice.id, amount: 30, model: 'var-model' })
  ctx.clock.advance(ctx.config.staleHoldMinutes * minute + minute)
  expect(await releaseStaleHolds(services)).toBe(1)

  // A redemption replacing a plan, then a top-up on the new one.
  await redeem(alice, 'PERSONAL')
  await redeem(alice, 'TOPUP50')
  await call(alice, 'fixed-model')

  // A plan replaced while a call runs: what is left of it expires when the call settles.
  const running = await freeze(services, { userId: erin.id, amount: 30, model: 'var-model' })
  await redeem(erin, 'PERSONAL')
  await settle(services, { holdId: running.holdId, actual: 12 })

  // A plan past its end: expired at the next call, which is refused.
  ctx.clock.advance(31 * 24 * hour)
  await call(bob, 'fixed-model')
  await call(dave, 'fixed-model')
}

async function callsOf(db: Database, userId: string): Promise<number> {
  const row = await db.selectFrom('proxy_calls').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Ids named by kind and order of creation: the same history gives the same names on either database. */
class Names {
  readonly #names = new Map<string, string>()

  async number(db: Database, table: 'users' | 'points_accounts' | 'points_holds' | 'api_keys' | 'subscriptions' | 'teams' | 'packages' | 'proxy_providers') {
    const rows = await db.selectFrom(table).select('id').orderBy('id').execute()
    rows.forEach(({ id }, i) => this.#names.set(`${id}`, `${table}#${i + 1}`))
  }

  of(id: string | null): string | null {
    if (id === null) return null
    const name = this.#names.get(`${id}`)
    if (!name) throw new Error(`no name for id ${id}`)
    return name
  }
}

/** What the money rules leave behind, with ids named and what only a clock on the wall decides left out. */
async function moneyState(db: Database) {
  const names = new Names()
  for (const table of ['users', 'points_accounts', 'points_holds', 'api_keys', 'subscriptions', 'teams', 'packages', 'proxy_providers'] as const) await names.number(db, table)
  const named = (row: Record<string, unknown>, drop: string[] = []): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([column]) => column !== 'id' && !drop.includes(column))
        .map(([column, value]) => [column, column.endsWith('_id') && column !== 'client_id' ? names.of(value as string | null) : value]),
    )
  const [accounts, ledger, holds, days, calls, keys, members, subscriptions, leases] = await Promise.all([
    db.selectFrom('points_accounts').selectAll().orderBy('id').execute(),
    db.selectFrom('points_ledger').selectAll().orderBy('account_id').orderBy('seq').execute(),
    db.selectFrom('points_holds').selectAll().orderBy('id').execute(),
    db.selectFrom('points_usage_days').selectAll().orderBy('user_id').orderBy('day').execute(),
    db.selectFrom('proxy_calls').selectAll().orderBy('id').execute(),
    db.selectFrom('api_keys').select(['id', 'points_used', 'day_points_used', 'points_day']).orderBy('id').execute(),
    db.selectFrom('team_members').select(['user_id', 'hour_points_used', 'points_hour', 'day_points_used', 'points_day']).orderBy('user_id').execute(),
    db.selectFrom('subscriptions').select(['id', 'user_id', 'team_id', 'status', 'start_timestamp', 'end_timestamp']).orderBy('id').execute(),
    db.selectFrom('call_leases').select('id').execute(),
  ])
  return {
    accounts: accounts.map((row) => ({ account: names.of(row.id), ...named(row) })),
    ledger: ledger.map((row) => named(row)),
    // `answered` is a settlement as known when an answer started (proxy/answered-holds.ts): its
    // timings, ids and even whether a cut stream got that far are the run's; what it settles to is compared.
    holds: holds.map((row): Record<string, unknown> => ({ hold: names.of(row.id), ...named(row, ['answered']) })),
    days: days.map((row) => named(row)),
    // Timings are the wall clock's; everything else of a call record is the rules'.
    calls: calls.map((row) => named(row, ['duration_ms', 'first_byte_ms', 'relay_ms'])),
    keys: keys.map((row) => ({ key: names.of(row.id), ...named(row) })),
    members: members.map((row) => named(row)),
    subscriptions: subscriptions.map((row) => ({ subscription: names.of(row.id), ...named(row) })),
    leases: leases.length,
  }
}

describeOnPostgres('the money rules, on SQLite and on PostgreSQL', () => {
  const databases: TestDatabase[] = []
  const relays: TestRelay[] = []
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    for (const kind of ['sqlite', 'postgres'] as const) {
      const database = await createTestDatabase(kind)
      databases.push(database)
      // One instance name: holds carry it (docs/decisions/074-settlements-and-holds.md).
      relays.push(await startTestRelay(database, { instance: 'money-rules' }))
    }
  })
  afterAll(async () => {
    for (const relay of relays) await relay.close()
    for (const database of databases) await database.dispose()
    await provider?.close()
  })

  it('leave the same balances, ledger rows, holds, days and call records after one scripted history', { timeout: 120_000 }, async () => {
    const states = []
    for (const ctx of relays) {
      provider.reset()
      await history(ctx, provider)
      await expectLedgerInvariants(ctx.relay.db)
      states.push(await moneyState(ctx.relay.db))
    }
    const [sqlite, postgres] = states
    // The history reached what it is meant to cover.
    const types = new Set(sqlite!.ledger.map((row) => `${row.type} ${row.reason ?? ''}`.trim()))
    expect([...types].sort()).toEqual(
      expect.arrayContaining(['consumed', 'earned activation', 'earned topup', 'expired', 'expired replaced', 'frozen', 'refilled', 'unfrozen']),
    )
    expect(sqlite!.calls.some((call) => (call.shortfall_points as number) > 0)).toBe(true)
    expect(sqlite!.calls.filter((call) => call.refusal !== null).length).toBeGreaterThanOrEqual(2)
    expect(sqlite!.calls.some((call) => call.outcome === 'failed')).toBe(true)
    expect(sqlite!.holds.filter((hold) => hold.owner === 'lost-relay')).toHaveLength(1)
    expect(postgres).toEqual(sqlite)
  })
})
