import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { addTestProvider, priceModel } from '../../tests/fixtures/proxy.ts'
import { ProviderKeyBox } from './provider-keys.ts'
import { setProviderEnabled } from './providers.ts'
import { RouteTable } from './route-table.ts'

describeEachDatabase('route table', (ctx) => {
  it('keeps prices and providers for its time to live, and looks again at once for what it lacks', async () => {
    let now = 0
    const table = new RouteTable(ctx.relay.db, new ProviderKeyBox(ctx.config.jwtSecrets), () => {}, { ttlMs: 1000, now: () => now })
    await priceModel(ctx, { model: 'rt-model', kind: 'fixed', points_per_call: 3 })
    const first = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: 'http://127.0.0.1:9', models: ['rt-*'] })

    const route = await table.route('anthropic', 'rt-model-20250101', 'session')
    expect(route.cost).toMatchObject({ model: 'rt-model', points_per_call: 3 })
    expect(route.providers.map((p) => p.id)).toEqual([first])
    expect((await table.route('openai', 'rt-model', 'session')).providers).toEqual([])

    // Changes made meanwhile are seen once the table is a second old…
    await priceModel(ctx, { model: 'rt-model', kind: 'fixed', points_per_call: 4 })
    await setProviderEnabled(ctx.relay.db, first, false, ctx.clock.now())
    const second = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: 'http://127.0.0.1:10', models: ['rt-*'] })
    now = 999
    expect(await table.route('anthropic', 'rt-model', 'session')).toMatchObject({ cost: { points_per_call: 3 }, providers: [{ id: first }] })
    now = 1000
    expect(await table.route('anthropic', 'rt-model', 'session')).toMatchObject({ cost: { points_per_call: 4 }, providers: [{ id: second }] })

    // …but a model priced a moment ago is found at once, with the provider added for it.
    expect((await table.route('anthropic', 'new-model', 'session')).cost).toBeNull()
    await priceModel(ctx, { model: 'new-model', kind: 'fixed', points_per_call: 1 })
    const third = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: 'http://127.0.0.1:11', models: ['new-*'] })
    expect(await table.route('anthropic', 'new-model', 'session')).toMatchObject({ cost: { model: 'new-model' }, providers: [{ id: third }] })
  })
})
