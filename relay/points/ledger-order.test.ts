import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, redeemFresh, servicesOf } from '../../tests/fixtures/points.ts'
import { inCommitOrder } from './history.ts'
import { grant, spend } from './ledger.ts'

describe('the points history in commit order', () => {
  it('orders one account\'s rows of one millisecond by seq, and keeps other accounts\' places', () => {
    // Two relays wrote account a in one millisecond: the later commit (seq 3) got the smaller id.
    const rows = [
      { id: '40', account_id: 'a', seq: 2, create_timestamp: 100 },
      { id: '39', account_id: 'b', seq: 7, create_timestamp: 100 },
      { id: '38', account_id: 'a', seq: 3, create_timestamp: 100 },
      { id: '37', account_id: 'a', seq: 1, create_timestamp: 99 },
    ]
    expect(inCommitOrder(rows).map((row) => row.id)).toEqual(['38', '39', '40', '37'])
  })
})

describeEachDatabase('ledger order', (ctx) => {
  it('numbers each account\'s rows in commit order, and no row is earlier than the one before', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const services = servicesOf(ctx)
    await grant(services, { userId: user.id, amount: 50, reason: 'first' })
    // A second relay whose clock is a second behind writes next.
    const behind = { ...services, clock: { now: () => ctx.clock.now() - 1000 } }
    await spend(behind, { userId: user.id, amount: 20, model: 'claude-test' })
    const rows = await ctx.relay.db
      .selectFrom('points_ledger')
      .select(['seq', 'change', 'balance_after', 'create_timestamp'])
      .where('user_id', '=', user.id)
      .orderBy('seq')
      .execute()
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => i + 1))
    expect(rows.at(-1)).toMatchObject({ change: -20, create_timestamp: ctx.clock.now() })
    await expectLedgerInvariants(ctx.relay.db)
  })
})
