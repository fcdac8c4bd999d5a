import { newId } from '../db/ids.ts'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { servicesOf } from '../../tests/fixtures/points.ts'
import { balanceOf, customer, pointPerToken, type Customer } from '../../tests/fixtures/proxy.ts'
import { settle } from '../points/ledger.ts'
import { chargeUpfront, type Charge } from './metering.ts'
import { SettlementQueue, type Settlement } from './settlements.ts'

const cost = pointPerToken('queue-model')

describeEachDatabase('settlement queue', (ctx) => {
  /** A hold of 10 points (10 tokens reserved), as a relayed call takes before it is forwarded. */
  async function hold(user: Customer): Promise<Charge> {
    return chargeUpfront(servicesOf(ctx), { userId: user.id, model: cost.model, cost, inputTokens: 4, maxOutputTokens: 6, shortfallCeiling: 0 })
  }

  function settlement(user: Customer, charge: Charge, outputTokens: number): Settlement {
    const usage = { input_tokens: 4, output_tokens: outputTokens }
    return {
      charge,
      cost,
      usage,
      call: {
        id: newId(),
        userId: user.id,
        keyId: user.keyId,
        providerId: null,
        api: 'anthropic',
        model: cost.model,
        streamed: false,
        outcome: 'completed',
        status: 200,
        usage,
        clientIp: '192.0.2.9',
        startedAt: ctx.clock.now(),
        durationMs: 3,
        relayMs: 1,
      },
    }
  }

  async function callsOf(user: Customer) {
    return ctx.relay.db.selectFrom('proxy_calls').select(['points']).where('user_id', '=', user.id).orderBy('id').execute()
  }

  it('holds settlements back until the group is full, then writes them all', async () => {
    const queue = new SettlementQueue(servicesOf(ctx), { windowMs: 60_000, maxBatch: 3 })
    const user = await customer(ctx, 100)
    const charges = [await hold(user), await hold(user), await hold(user)]
    expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 70, frozen_points: 30 }))

    const first = [queue.add(settlement(user, charges[0]!, 1)), queue.add(settlement(user, charges[1]!, 2))]
    // Both wait in the group (none is being written), so nothing reaches the database.
    expect(queue.waiting).toBe(2)
    expect(await callsOf(user)).toEqual([])
    expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ frozen_points: 30 }))

    await Promise.all([...first, queue.add(settlement(user, charges[2]!, 3))])
    expect((await callsOf(user)).map((c) => c.points).sort()).toEqual([5, 6, 7])
    expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 100 - 18, frozen_points: 0 }))
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('writes a lone settlement when its window closes, and whatever waits on drain', async () => {
    const timed = new SettlementQueue(servicesOf(ctx), { windowMs: 5 })
    const user = await customer(ctx, 100)
    await timed.add(settlement(user, await hold(user), 1))
    expect(await callsOf(user)).toEqual([{ points: 5 }])

    const drained = new SettlementQueue(servicesOf(ctx), { windowMs: 60_000 })
    const written = drained.add(settlement(user, await hold(user), 2))
    await drained.drain()
    await written
    expect(await callsOf(user)).toEqual([{ points: 5 }, { points: 6 }])
    await expectLedgerInvariants(ctx.relay.db)
  })

  // PostgreSQL picks one transaction of a deadlock to roll back; it may be a settlement's.
  it.runIf(ctx.kind === 'postgres')('tries a settlement given up over a lock again, so the call is charged and recorded once', async () => {
    const db = ctx.relay.db
    // The first two writes of a call record fail as a deadlock's victim does (a sequence, so
    // counting them survives their rollbacks): the group, then the settlement alone.
    await sql`create sequence settle_attempts`.execute(db)
    await sql`create function deadlock_first_settles() returns trigger language plpgsql as $$
      begin
        if nextval('settle_attempts') <= 2 then raise exception 'deadlock detected' using errcode = '40P01'; end if;
        return new;
      end $$`.execute(db)
    await sql`create trigger deadlock_first_settles before insert on proxy_calls for each row execute function deadlock_first_settles()`.execute(db)
    try {
      const queue = new SettlementQueue(servicesOf(ctx), { windowMs: 5 })
      const user = await customer(ctx, 100)
      const logged = ctx.logs.length
      await queue.add(settlement(user, await hold(user), 1))
      expect(await callsOf(user)).toEqual([])
      await expect.poll(() => callsOf(user), { timeout: 5_000 }).toEqual([{ points: 5 }])
      expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 95, frozen_points: 0 }))
      expect(ctx.logs.slice(logged).filter((line) => line.includes('settling a relayed call failed'))).toEqual([])
      await expectLedgerInvariants(db)
    } finally {
      await sql`drop trigger deadlock_first_settles on proxy_calls`.execute(db)
      await sql`drop function deadlock_first_settles()`.execute(db)
      await sql`drop sequence settle_attempts`.execute(db)
    }
  })

  it('settles the rest of a group when one settlement fails, and logs that one', async () => {
    const queue = new SettlementQueue(servicesOf(ctx), { windowMs: 60_000, maxBatch: 3 })
    const [one, two] = [await customer(ctx, 100), await customer(ctx, 100)]
    const [a, broken, b] = [await hold(one), await hold(one), await hold(two)]
    // Settled behind the queue's back: settling it again is a conflict, which fails the group.
    await settle(servicesOf(ctx), { holdId: (broken as Extract<Charge, { kind: 'hold' }>).holdId, actual: 0 })
    const logged = ctx.logs.length

    await Promise.all([queue.add(settlement(one, a, 1)), queue.add(settlement(one, broken, 1)), queue.add(settlement(two, b, 2))])
    expect(await callsOf(one)).toEqual([{ points: 5 }])
    expect(await callsOf(two)).toEqual([{ points: 6 }])
    expect(await balanceOf(ctx, one.token)).toEqual(expect.objectContaining({ balance: 95, frozen_points: 0 }))
    expect(ctx.logs.slice(logged).filter((line) => line.includes('settling a relayed call failed'))).toHaveLength(1)
    await expectLedgerInvariants(ctx.relay.db)
  })
})
