import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { servicesOf } from '../../tests/fixtures/points.ts'
import { balanceOf, customer, pointPerToken } from '../../tests/fixtures/proxy.ts'
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
})
