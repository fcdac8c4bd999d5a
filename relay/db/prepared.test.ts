import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { inTransaction } from '../points/locks.ts'
import { prepared } from './prepared.ts'

describeEachDatabase('prepared queries', (ctx) => {
  // Compiled on first use, per dialect; each run binds its own values, constants stay.
  const insertCost = prepared((db, args: { model: string; points: number; now: number }) =>
    db.insertInto('model_costs').values({ model: args.model, kind: 'fixed', points_per_call: args.points, description: 'prepared', update_timestamp: args.now }),
  )
  const raise = prepared((db, args: { model: string; by: number }) =>
    db
      .updateTable('model_costs')
      .set({ points_per_call: sql<number>`points_per_call + ${args.by}` })
      .where('model', '=', args.model)
      .where('description', '=', 'prepared')
      .returning(['model', 'points_per_call']),
  )
  const cheaperThan = prepared((db, args: { points: number }) =>
    db.selectFrom('model_costs').select('model').where('points_per_call', '<', args.points).where('description', '=', 'prepared').orderBy('model').limit(5),
  )

  it('runs one compiled query with each run’s values, in and out of transactions', async () => {
    for (const [model, points] of [['p-a', 1], ['p-b', 5], ['p-c', 9]] as const) await insertCost(ctx.relay.db, { model, points, now: 1 })
    expect((await cheaperThan(ctx.relay.db, { points: 6 })).rows).toEqual([{ model: 'p-a' }, { model: 'p-b' }])
    expect((await cheaperThan(ctx.relay.db, { points: 2 })).rows).toEqual([{ model: 'p-a' }])

    const raised = await inTransaction(ctx.relay.db, async (trx) => [(await raise(trx, { model: 'p-a', by: 10 })).rows, (await raise(trx, { model: 'p-c', by: 1 })).rows])
    expect(raised).toEqual([[{ model: 'p-a', points_per_call: 11 }], [{ model: 'p-c', points_per_call: 10 }]])
    expect((await raise(ctx.relay.db, { model: 'nope', by: 1 })).rows).toEqual([])
    expect((await cheaperThan(ctx.relay.db, { points: 100 })).rows).toEqual([{ model: 'p-a' }, { model: 'p-b' }, { model: 'p-c' }])
  })
})
