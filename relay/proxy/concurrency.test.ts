import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { addTestProvider, balanceOf, callRelay, customer, priceModel, settled } from '../../tests/fixtures/proxy.ts'

describeEachDatabase('metered relay under concurrency', (ctx) => {
  let provider: FakeProvider

  beforeAll(async () => {
    provider = await startFakeProvider()
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['*'] })
    await priceModel(ctx, { model: 'one-point', kind: 'fixed', points_per_call: 1 })
    // The fake reports 40 output tokens; asking for 40 makes the frozen estimate equal the cost: 1 point.
    await priceModel(ctx, { model: 'one-point-metered', kind: 'variable', input_points_per_mtok: 0, output_points_per_mtok: 25_000 })
  })
  afterAll(() => provider?.close())

  for (const model of ['one-point', 'one-point-metered']) {
    it(`lets exactly as many of 300 parallel ${model} calls through as the balance covers`, async () => {
      const user = await customer(ctx, 100)
      const body = { model, max_tokens: 40, stream: true, messages: [{ role: 'user', content: 'Hi' }] }
      const replies = await Promise.all(
        Array.from({ length: 300 }, async () => {
          const response = await callRelay(ctx, '/v1/messages', { key: user.key, body })
          return { status: response.status, text: await response.text() }
        }),
      )
      const byStatus = new Map<number, number>()
      for (const { status } of replies) byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
      expect(Object.fromEntries(byStatus)).toEqual({ 200: 100, 429: 200 })
      expect(replies.filter((r) => r.status === 200).every((r) => r.text.includes('message_stop'))).toBe(true)
      expect(replies.find((r) => r.status === 429)!.text).toContain('Not enough points: this call needs 1 point and the balance is 0.')

      await settled(ctx, user.id, 100)
      expect(await balanceOf(ctx, user.token)).toMatchObject({ balance: 0, frozen_points: 0 })
      const consumed = await ctx.relay.db
        .selectFrom('points_ledger')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .where('type', '=', 'consumed')
        .executeTakeFirstOrThrow()
      expect(Number(consumed.n)).toBe(100)
      await expectLedgerInvariants(ctx.relay.db)
    })
  }
})
