import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { servicesOf } from '../../tests/fixtures/points.ts'
import { balanceOf, customer, pointPerToken } from '../../tests/fixtures/proxy.ts'
import { startRelay } from '../index.ts'
import { createLogger } from '../logger.ts'
import { chargeUpfront } from './metering.ts'
import { releaseStaleHolds } from './stale-holds.ts'

const cost = pointPerToken('stale-model')

describeEachDatabase('stale holds', (ctx) => {
  it('gives back the holds of calls no relay will settle, and leaves the others', async () => {
    const lines: string[] = []
    const services = { ...servicesOf(ctx), logger: createLogger('warn', (line) => lines.push(line)) }
    const user = await customer(ctx, 100)
    const freeze = () => chargeUpfront(services, { userId: user.id, model: cost.model, cost, inputTokens: 5, maxOutputTokens: 5, shortfallCeiling: 0 })
    await freeze()
    ctx.clock.advance(ctx.config.staleHoldMinutes * 60_000 - 1000)
    await freeze()
    expect(await releaseStaleHolds(services)).toBe(0)
    expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 80, frozen_points: 20 }))

    ctx.clock.advance(2000)
    expect(await releaseStaleHolds(services)).toBe(1)
    expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 90, frozen_points: 10 }))
    expect(lines).toEqual([expect.stringContaining(`WARN stale hold given back (its relay was lost mid-call) hold=`)])
    expect(await releaseStaleHolds(services)).toBe(0)
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('gives back at once, when a relay starts, the holds its previous run left open, and no other relay\'s', async () => {
    const user = await customer(ctx, 100)
    const takenBy = (instance: string) =>
      chargeUpfront({ ...servicesOf(ctx), config: { ...ctx.config, instance } }, { userId: user.id, model: cost.model, cost, inputTokens: 5, maxOutputTokens: 5, shortfallCeiling: 0 })
    // A run of relay-a killed mid-call, and a call in flight on relay-b.
    await takenBy('relay-a')
    await takenBy('relay-b')
    expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 80, frozen_points: 20 }))

    ctx.clock.advance(1)
    const restarted = await startRelay({ ...ctx.config, instance: 'relay-a' }, { clock: ctx.clock, logger: createLogger('error', () => undefined) })
    try {
      // Long before STALE_HOLD_MINUTES: relay-a's own hold only.
      await expect.poll(async () => (await balanceOf(ctx, user.token)).frozen_points).toBe(10)
      expect(await balanceOf(ctx, user.token)).toEqual(expect.objectContaining({ balance: 90 }))
      const open = await ctx.relay.db.selectFrom('points_holds').select('owner').where('user_id', '=', user.id).where('settled_timestamp', 'is', null).execute()
      expect(open).toEqual([{ owner: 'relay-b' }])
    } finally {
      await restarted.close()
    }
    await expectLedgerInvariants(ctx.relay.db)
  })

  it('shows the holds past the limit in relay_stale_holds until the sweep gives them back, and the PostgreSQL pool in its gauges', async () => {
    const token = 'stale-holds-metrics-0123456789'
    const watched = await startRelay({ ...ctx.config, instance: 'metrics-relay', metricsToken: token, sweeps: false }, { clock: ctx.clock, logger: createLogger('error', () => undefined) })
    const scrape = async () => (await watched.fetch(new Request('http://relay.test/metrics', { headers: { authorization: `Bearer ${token}` } }))).text()
    const figure = (text: string, family: string) => Number(new RegExp(`^${family} (\\S+)$`, 'm').exec(text)?.[1])
    const services = servicesOf(ctx)
    try {
      // Holds earlier tests left open are past the limit, and given back, first.
      ctx.clock.advance(ctx.config.staleHoldMinutes * 60_000 + 1)
      await releaseStaleHolds(services)
      const user = await customer(ctx, 100)
      await chargeUpfront(services, { userId: user.id, model: cost.model, cost, inputTokens: 5, maxOutputTokens: 5, shortfallCeiling: 0 })
      expect(figure(await scrape(), 'relay_stale_holds')).toBe(0)
      ctx.clock.advance(ctx.config.staleHoldMinutes * 60_000 + 1)
      const text = await scrape()
      expect(figure(text, 'relay_stale_holds')).toBe(1)
      if (ctx.kind === 'postgres') {
        expect(figure(text, 'relay_db_pool_connections')).toBeGreaterThan(0)
        expect(figure(text, 'relay_db_pool_connections_in_use')).toBeGreaterThanOrEqual(0)
      } else {
        expect([figure(text, 'relay_db_pool_connections'), figure(text, 'relay_db_pool_waiting')]).toEqual([0, 0])
      }
      expect(await releaseStaleHolds(services)).toBe(1)
      expect(figure(await scrape(), 'relay_stale_holds')).toBe(0)
    } finally {
      await watched.close()
    }
    await expectLedgerInvariants(ctx.relay.db)
  })
})
