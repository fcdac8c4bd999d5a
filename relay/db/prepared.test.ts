import BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { elapse } from '../../tests/fixtures/time.ts'
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

  it('never runs inside a transaction another caller holds: a query asked meanwhile waits for its end, and survives its rollback', async () => {
    const { db } = ctx.relay
    let opened!: () => void
    const open = new Promise<void>((resolve) => (opened = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const rolledBack = inTransaction(db, async (trx) => {
      await insertCost(trx, { model: 'p-rolled-back', points: 1, now: 1 })
      opened()
      await gate
      throw new Error('rolled back on purpose')
    })
    await open
    // Asked while the transaction is open, outside it: on SQLite's one connection it must not join it.
    const alone = insertCost(db, { model: 'p-alone', points: 2, now: 1 })
    const seen = cheaperThan(db, { points: 100 })
    release()
    await expect(rolledBack).rejects.toThrow('rolled back on purpose')
    await alone
    // Inside the transaction, the read would have seen its row, and the write been rolled back with it.
    expect((await seen).rows.map((row) => row.model)).not.toContain('p-rolled-back')
    expect((await cheaperThan(db, { points: 100 })).rows.map((row) => row.model)).toEqual(['p-a', 'p-alone', 'p-b', 'p-c'])
  })

  it('keeps constants as written: a quote and a question mark in a constant and in the SQL text, a limit, beside the values of the run', async () => {
    const odd = "it's ? one"
    const byDescription = prepared((db, args: { model: string }) =>
      db
        .selectFrom('model_costs')
        .select(['model', 'description'])
        // A `?` inside a string of the text itself is no parameter.
        .where(sql<boolean>`description <> 'not ? this'`)
        .where('description', '=', odd)
        .where('model', '>=', args.model)
        .orderBy('model')
        .limit(2),
    )
    for (const model of ['q-a', 'q-b', 'q-c']) await ctx.relay.db.insertInto('model_costs').values({ model, kind: 'fixed', points_per_call: 1, description: odd, update_timestamp: 1 }).execute()
    expect((await byDescription(ctx.relay.db, { model: 'q-a' })).rows).toEqual([
      { model: 'q-a', description: odd },
      { model: 'q-b', description: odd },
    ])
    expect((await byDescription(ctx.relay.db, { model: 'q-c' })).rows).toEqual([{ model: 'q-c', description: odd }])
  })

  it.skipIf(ctx.kind !== 'sqlite')('waits for another process’s write lock on SQLite, without blocking the event loop, and writes once it is released', async () => {
    // The operator CLI or a second relay, holding SQLite's one write lock.
    const other = new BetterSqlite3(ctx.config.databaseUrl)
    try {
      other.prepare('begin immediate').run()
      const written = insertCost(ctx.relay.db, { model: 'p-after-lock', points: 3, now: 1 })
      let done = false
      void written.then(() => (done = true))
      // Refused at once with SQLITE_BUSY, then tried again between pauses: the loop runs meanwhile.
      await elapse(50)
      expect(done).toBe(false)
      other.prepare('commit').run()
      await written
      expect((await cheaperThan(ctx.relay.db, { points: 4 })).rows.map((row) => row.model)).toContain('p-after-lock')
    } finally {
      other.close()
    }
  })
})
