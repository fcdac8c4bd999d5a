/**
 * The console's reconciliation page and its CSV, as a browser without JavaScript uses them: calls
 * through the real relay to the loopback fake provider, the hourly aggregation run once, then the
 * page and the download show each model's points beside its list cost; the operator replaces the
 * list prices on their page and the report, /pricing and the audit log follow. SQLite, and
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { endpoints } from '../../relay/contract/index.ts'
import { refreshOperatorStats } from '../../relay/admin/overview.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { servicesOf } from '../fixtures/points.ts'
import { addTestProvider, callRelay, customer, settled } from '../fixtures/proxy.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { textOf } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
const { signedIn } = portalOverRelay(() => target!)

describeEachDatabase('console reconciliation', (ctx) => {
  let provider: FakeProvider
  beforeAll(async () => {
    target = ctx
    provider = await startFakeProvider()
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['claude-*'] })
  })
  afterAll(() => provider?.close())

  it('shows a month per model beside its list cost, and downloads the same rows as CSV', async () => {
    const user = await customer(ctx, 100_000)
    for (let i = 0; i < 2; i++) {
      provider.queue({ kind: 'answer', usage: { input_tokens: 10_000, output_tokens: 1000, cache_read_tokens: 0, cache_write_tokens: 0 } })
      const answer = await callRelay(ctx, '/v1/messages', { key: user.key, body: { model: 'claude-opus-5-5', max_tokens: 1000, messages: [{ role: 'user', content: 'Hi' }] } })
      await answer.text()
    }
    await settled(ctx, user.id, 2)
    await refreshOperatorStats(servicesOf(ctx), { settleLagMs: 0 })

    const account = await ctx.signUp()
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('username', '=', account.username).execute()
    const operator = await signedIn(account)
    const month = new Date(ctx.clock.now()).toISOString().slice(0, 7)
    const page = await operator.get(`/admin/reconciliation?month=${month}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    // Opus 5.5 at its seeded price, the list's $4 / $20: (10,000 × 400 + 1,000 × 2,000) / 1M = 6 points a call.
    const row = textOf(html, 'reconciliation-row')
    expect(row).toContain('claude-opus-5-5')
    expect(row).toContain('2 次')
    expect(row).toContain('20,000 / 2,000')
    expect(row).toContain('12')
    expect(row).toContain('US$0.12')
    expect(row).toContain('100%')

    const csv = await operator.get(`/admin/reconciliation/export?month=${month}`)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="reconciliation-${month}.csv"`)
    const lines = (await csv.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n')
    expect(lines[0]).toBe('month,model,provider_id,provider,calls,input_tokens,output_tokens,cache_read_tokens,cache_write_5m_tokens,cache_write_1h_tokens,web_searches,points_charged,list_usd,points_per_list_cent')
    expect(lines[1]).toMatch(new RegExp(`^${month},claude-opus-5-5,\\d+,anthropic · 127\\.0\\.0\\.1:\\d+,2,20000,2000,0,0,0,0,12,0\\.1200,1\\.0000$`))

    const empty = await (await operator.get('/admin/reconciliation?month=2001-01')).text()
    expect(textOf(empty, 'reconciliation-empty')).toBe('这个月没有调用记录。')
  })

  it('takes new list prices, their day and rate from the console, without JavaScript, and compares with them', async () => {
    const account = await ctx.signUp()
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('username', '=', account.username).execute()
    const operator = await signedIn(account)
    const form = await (await operator.get('/admin/list-prices')).text()
    expect(form).toContain('claude-opus-5-5 4 20')
    expect(form).toContain('value="7.20"')

    // A line without its prices: refused with the reason, what was typed kept.
    const typed = 'claude-opus-5-5 5 25\nclaude-haiku-*'
    const refused = await operator.submit('/admin/list-prices', { read_on: '2026-12-01', cny_per_usd: '7.10', lines: typed })
    expect(refused.status).toBe(400)
    const refusedHtml = await refused.text()
    expect(refusedHtml).toContain('每行需要一个模型和两个美元价格')
    expect(refusedHtml).toContain('claude-haiku-*</textarea>')

    const saved = await operator.submit('/admin/list-prices', { read_on: '2026-12-01', cny_per_usd: '7.10', lines: 'claude-opus-5-5 5 25\nclaude-*  1.5 7.5' })
    expect(saved.status).toBe(302)
    expect(await ctx.call(endpoints.adminOps.listPrices, { token: account.login.access_token })).toEqual({
      read_on: '2026-12-01',
      fen_per_usd: 710,
      items: [
        { model: 'claude-*', input_cents_per_mtok: 150, output_cents_per_mtok: 750 },
        { model: 'claude-opus-5-5', input_cents_per_mtok: 500, output_cents_per_mtok: 2500 },
      ],
    })
    const pricing = await ctx.call(endpoints.public.pricing)
    expect(pricing).toMatchObject({ list_prices_date: '2026-12-01', cny_per_usd: 7.1 })
    expect(pricing.models.find((model) => model.model === 'claude-opus-5-5')).toMatchObject({ list_input_usd_per_mtok: 5, list_output_usd_per_mtok: 25 })
    // The two calls of the month above: (20,000 × 500 + 2,000 × 2,500) / 1M = 15 cents at the new list.
    const month = new Date(ctx.clock.now()).toISOString().slice(0, 7)
    const report = await ctx.call(endpoints.adminOps.reconciliation, { token: account.login.access_token, query: { month } })
    expect(report.list_prices_date).toBe('2026-12-01')
    expect(report.rows.find((row) => row.model === 'claude-opus-5-5')?.list_cents).toBe(15)
    const audit = await ctx.relay.db.selectFrom('audit_log').selectAll().where('action', '=', 'list_prices.set').execute()
    expect(audit).toHaveLength(1)
  })
})
