import type { Kysely } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../../tests/fixtures/databases.ts'
import { quickUser, redeemFresh, servicesOf } from '../../../tests/fixtures/points.ts'
import { freeze } from '../../points/ledger.ts'
import { up } from './0069-settled-holds-unmarked.ts'

describeEachDatabase('0069-settled-holds-unmarked', (ctx) => {
  it('clears the answered marks settled holds kept, and keeps an open hold’s', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const services = servicesOf(ctx)
    const settled = await freeze(services, { userId: user.id, amount: 5, model: 'm' })
    const open = await freeze(services, { userId: user.id, amount: 5, model: 'm' })
    const { db } = ctx.relay
    // As a relay of the previous version left them: both marked, one settled without clearing its mark.
    await db.updateTable('points_holds').set({ answered: '{"call":{}}' }).where('id', 'in', [settled.holdId, open.holdId]).execute()
    await db.updateTable('points_holds').set({ settled_timestamp: ctx.clock.now() }).where('id', '=', settled.holdId).execute()

    await up(db as unknown as Kysely<unknown>)

    const marks = await db.selectFrom('points_holds').select(['id', 'answered']).where('id', 'in', [settled.holdId, open.holdId]).execute()
    expect(Object.fromEntries(marks.map((hold) => [hold.id, hold.answered]))).toEqual({ [settled.holdId]: null, [open.holdId]: '{"call":{}}' })
  })
})
