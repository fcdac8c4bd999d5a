/**
 * Every page of the points history holds exactly the lines a walk from the newest row gives
 * (docs/decisions/111-bounded-history-reads.md), however the page found where it starts (docs/decisions/111-bounded-history-reads.md): here
 * against the history recomputed from all of the user's rows, page by page, on histories whose
 * calls run over UTC+8 midnights.
 */
import { afterEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { historyOverDays } from '../../tests/fixtures/history.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { makeTeam, quickUser, redeemFresh, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { teamEndpoints } from '../contract/teams.ts'
import type { Database } from '../db/open-database.ts'
import { inCommitOrder, pointsHistory } from './history.ts'
import { spend } from './ledger.ts'
import { rebuildUsageDays } from './usage-days.ts'

const hour = 3_600_000

/**
 * The history's lines, newest first: each of the user's rows of no hold, each call's rows as one
 * line (placed by its newest row, shown as its newest row by `seq`, its net change), each row of
 * their team's pool since they joined.
 */
async function allLines(db: Database, userId: string) {
  const rows = await db.selectFrom('points_ledger').selectAll().where('user_id', '=', userId).execute()
  const membership = await db
    .selectFrom('team_members as m')
    .innerJoin('points_accounts as a', 'a.team_id', 'm.team_id')
    .select(['a.id', 'm.create_timestamp as since'])
    .where('m.user_id', '=', userId)
    .executeTakeFirst()
  const poolRows = membership
    ? await db.selectFrom('points_ledger').selectAll().where('account_id', '=', membership.id).where('user_id', 'is', null).where('create_timestamp', '>=', membership.since).execute()
    : []
  const byLine = new Map<string, typeof rows>()
  for (const row of rows) byLine.set(row.hold_id ?? `row ${row.id}`, [...(byLine.get(row.hold_id ?? `row ${row.id}`) ?? []), row])
  const newer = (a: { create_timestamp: number; id: string }, b: { create_timestamp: number; id: string }) =>
    a.create_timestamp - b.create_timestamp || (BigInt(a.id) > BigInt(b.id) ? 1 : BigInt(a.id) < BigInt(b.id) ? -1 : 0)
  const lines = [...byLine.values(), ...poolRows.map((row) => [row])].map((lineRows) => {
    const placed = lineRows.reduce((a, b) => (newer(a, b) > 0 ? a : b))
    const shown = lineRows.reduce((a, b) => (a.seq > b.seq ? a : b))
    return { place: placed, id: shown.id, account_id: shown.account_id, seq: shown.seq, create_timestamp: placed.create_timestamp, change: lineRows.reduce((sum, row) => sum + row.change, 0) }
  })
  return lines.sort((a, b) => newer(b.place, a.place))
}

async function expectEveryPage(db: Database, user: PointsUser, pageSize: number) {
  const lines = await allLines(db, user.id)
  for (let page = 1; page <= Math.ceil(lines.length / pageSize) + 1; page++) {
    const read = await pointsHistory(db, user.id, { page, pageSize })
    const expected = inCommitOrder(lines.slice((page - 1) * pageSize, page * pageSize))
    expect({ page, total: read.total, items: read.items.map((item) => [item.id, item.change]) }).toEqual({
      page,
      total: lines.length,
      items: expected.map((line) => [line.id, line.change]),
    })
  }
}

describeEachDatabase('points history pages', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  it('gives every page the lines of a walk from the newest row, with calls over midnight', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    await historyOverDays(ctx, user, { days: 4, instants: 45 })
    for (const pageSize of [10, 7, 100]) await expectEveryPage(ctx.relay.db, user, pageSize)
    // Counted again from the ledger (migration 0044, the benchmark's seeding): the days the writes kept.
    const days = () =>
      ctx.relay.db.selectFrom('points_usage_days').select(['day', 'consumed', 'lines']).where('user_id', '=', user.id).where((eb) => eb.or([eb('consumed', '<>', 0), eb('lines', '<>', 0)])).orderBy('day').execute()
    const kept = await days()
    await rebuildUsageDays(ctx.relay.db)
    expect(await days()).toEqual(kept)
  })

  it("does so for a team member, the pool's own rows since they joined among their lines", async () => {
    const owner = await quickUser(ctx)
    const member = await quickUser(ctx)
    const teamCode = await makeTeam(ctx, owner)
    // Pool rows before the member joins (the refill of the owner's spending) are not theirs.
    await spend(servicesOf(ctx), { userId: owner.id, amount: 3000, model: 'claude-sonnet-4-5' })
    ctx.clock.advance(2 * hour)
    await spend(servicesOf(ctx), { userId: owner.id, amount: 10, model: 'claude-sonnet-4-5' })
    ctx.clock.advance(1000)
    await ctx.call(teamEndpoints.join, { token: member.token, body: { team_code: teamCode } })
    await historyOverDays(ctx, member, { days: 3, instants: 45 })
    for (const pageSize of [10, 9]) await expectEveryPage(ctx.relay.db, member, pageSize)
  })
})
