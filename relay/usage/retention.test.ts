import { expect, it } from 'vitest'
import { firstIdAt } from '../db/ids.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { servicesOf } from '../../tests/fixtures/points.ts'
import { customer } from '../../tests/fixtures/proxy.ts'
import { removeOldCalls, retentionBatch } from './retention.ts'

const dayMs = 86_400_000

describeEachDatabase('usage log retention', (ctx) => {
  it('removes the calls recorded before the retention, in batches, and keeps the rest', async () => {
    const user = await customer(ctx, 100)
    const services = servicesOf(ctx)
    const days = services.config.callsRetentionDays
    expect(days).toBe(90)
    // Ids carry the time a call was recorded: three batches and a bit before the cutoff, three after.
    const at = (timestamp: number, i: number) => (BigInt(firstIdAt(timestamp)) + BigInt(i)).toString()
    const old = ctx.clock.now() - (days + 1) * dayMs
    const recent = ctx.clock.now() - (days - 1) * dayMs
    const row = (id: string, timestamp: number) => ({
      id,
      user_id: user.id,
      key_id: user.keyId,
      client_id: null,
      provider_id: null,
      api: 'anthropic' as const,
      model: 'kept-or-not',
      streamed: 0,
      outcome: 'completed' as const,
      status: 200,
      input_tokens: 1,
      output_tokens: 1,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cache_write_1h_tokens: 0,
      web_search_requests: 0,
      points: 1,
      shortfall_points: 0,
      client_ip: '192.0.2.1',
      create_timestamp: timestamp,
      duration_ms: 1,
      refusal: null,
      first_byte_ms: null,
      hold_id: null,
    })
    const oldRows = Array.from({ length: 3 * retentionBatch + 7 }, (_, i) => row(at(old, i), old))
    for (let i = 0; i < oldRows.length; i += 200) await ctx.relay.db.insertInto('proxy_calls').values(oldRows.slice(i, i + 200)).execute()
    const kept = [0, 1, 2].map((i) => at(recent, i))
    await ctx.relay.db.insertInto('proxy_calls').values(kept.map((id) => row(id, recent))).execute()

    expect(await removeOldCalls(services)).toBe(oldRows.length)
    const left = await ctx.relay.db.selectFrom('proxy_calls').select('id').where('user_id', '=', user.id).orderBy('id').execute()
    expect(left.map((r) => r.id)).toEqual(kept)
    // Nothing more to do.
    expect(await removeOldCalls(services)).toBe(0)
  })
})
