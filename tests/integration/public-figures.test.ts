/**
 * The public figures as a visitor reads them (docs/decisions/120-figures-from-hourly-aggregates.md, decisions/080-prices.md): known calls through the
 * real relay to the loopback fake provider, known tickets and replies, the background aggregation
 * run once, then Home, /pricing and /status from the portal's production build must show exactly
 * what the records say. An empty deployment shows targets, labelled as targets. SQLite, and
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { publicThresholds } from '../../relay/contract/public.ts'
import { ticketEndpoints } from '../../relay/contract/tickets.ts'
import { refreshPublicStats } from '../../relay/public-stats/aggregate.ts'
import { latencyBounds } from '../../relay/public-stats/latency-histogram.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../fixtures/ledger.ts'
import { runOperatorCli } from '../fixtures/operator-cli.ts'
import { servicesOf } from '../fixtures/points.ts'
import { addTestProvider, callRelay, customer, settled } from '../fixtures/proxy.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { textOf, Visitor } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
let provider: FakeProvider
const visitor = new Visitor(portalOverRelay(() => target!).handle)

beforeAll(async () => {
  provider = await startFakeProvider()
})

afterAll(async () => {
  await provider.close()
})

async function page(path: string): Promise<string> {
  const response = await visitor.get(path)
  expect(response.status).toBe(200)
  return response.text()
}

/** The seeded packages (migration 0003): PERSONAL, ¥99 for 2,400 points, is the best value; prices are 1 point per US cent of list (docs/decisions/080-prices.md). */
const savedPercent = Math.floor(100 * (1 - 9900 / 2400 / 7.2))

describeEachDatabase('public figures', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  it('shows targets, labelled as targets, while there is no traffic and no answered ticket', async () => {
    await refreshPublicStats(servicesOf(ctx), { settleLagMs: 0 })
    const home = await page('/')
    expect(textOf(home, 'stat-uptime')).toBe('可用性 目标 99.9%')
    expect(textOf(home, 'stat-latency')).toBe('中转附加延迟（中位数） 目标 < 50 ms')
    expect(textOf(home, 'stat-support')).toBe('工单首次回复（中位数） 目标 1–2 个工作日')
    // Savings need no traffic: they follow from the price table and the packages.
    expect(textOf(home, 'stat-savings')).toBe(`较官方价最多节省 按当前价目计算 ${savedPercent}%`)
    // The copy quotes the computed saving, and states the speed-up only as a target.
    expect(home).toContain(`按当前价格，较官方价最多节省 ${savedPercent}%；我们的目标：国内访问速度最高提升 300%。`)

    const status = await page('/status')
    expect(textOf(status, 'status-empty')).toBe('近 7 天还没有调用记录。')
    expect(textOf(status, 'incidents')).toContain('近 14 天没有事件。')
  })

  it('shows on Home, /status and /pricing exactly what the calls and tickets say', async () => {
    await addTestProvider(ctx, { kind: 'anthropic', baseUrl: provider.url, models: ['claude-*'] })
    const user = await customer(ctx, 100_000)
    const call = async (model: string) => {
      const response = await callRelay(ctx, '/v1/messages', {
        key: user.key,
        body: { model, max_tokens: 1000, messages: [{ role: 'user', content: 'Hello' }] },
      })
      await response.text()
      return response.status
    }
    // Sonnet: 3 failures of the provider, 2 refusals of the request (the client's, not counted), the rest answered.
    const sonnet = publicThresholds.calls + 2
    provider.queue(
      { kind: 'fail', status: 500 },
      { kind: 'fail', status: 400 },
      { kind: 'fail', status: 500 },
      { kind: 'fail', status: 400 },
      { kind: 'fail', status: 500 },
    )
    for (let i = 0; i < sonnet; i++) await call('claude-sonnet-5-5')
    for (let i = 0; i < 5; i++) expect(await call('claude-haiku-5-5')).toBe(200)
    await settled(ctx, user.id, sonnet + 5)
    await expectLedgerInvariants(ctx.relay.db)

    // Tickets answered after 10, 20, 30, 120 and 180 minutes; one never answered (not counted).
    const waits = [10, 20, 30, 120, 180]
    for (const minutes of [...waits, null]) {
      const opened = await ctx.call(ticketEndpoints.create, {
        token: user.token,
        body: { type: 'consultation', title: 'Question', content: 'How do I start?' },
      })
      if (minutes === null) continue
      ctx.clock.advance(minutes * 60_000)
      expect((await runOperatorCli(ctx, 'ticket', 'reply', opened.number, '--message', 'Like this.')).code).toBe(0)
    }

    // Two relays refreshing at once: one takes the calls, the other adds nothing; a later run finds nothing new.
    const runs = await Promise.all([refreshPublicStats(servicesOf(ctx), { settleLagMs: 0 }), refreshPublicStats(servicesOf(ctx), { settleLagMs: 0 })])
    expect(runs.sort((a, b) => a - b)).toEqual([0, sonnet + 5])
    expect(await refreshPublicStats(servicesOf(ctx), { settleLagMs: 0 })).toBe(0)

    const rows = await ctx.relay.db.selectFrom('proxy_calls').select(['model', 'outcome', 'relay_ms']).execute()
    const failed = rows.filter((row) => row.outcome === 'failed').length
    expect(failed).toBe(3)
    expect(rows.filter((row) => row.outcome === 'refused').length).toBe(2)
    const percent = (calls: number, failures: number) => `${Math.floor(((calls - failures) / calls) * 10_000) / 100}%`
    const medianBound = (of: typeof rows) => {
      const sorted = of.map((row) => row.relay_ms!).sort((a, b) => a - b)
      const median = sorted[Math.ceil(sorted.length / 2) - 1]!
      return latencyBounds.find((bound) => median < bound)
    }

    const home = await page('/')
    expect(textOf(home, 'stat-uptime')).toBe(`可用性 近 30 天实测 ${percent(rows.length, failed)}`)
    expect(textOf(home, 'stat-latency')).toBe(`中转附加延迟（中位数） 近 30 天实测 < ${medianBound(rows)} ms`)
    // The median of 10, 20, 30, 120 and 180 minutes.
    expect(textOf(home, 'stat-support')).toBe('工单首次回复（中位数） 近 30 天实测 30分钟')
    expect(textOf(home, 'stat-savings')).toBe(`较官方价最多节省 按当前价目计算 ${savedPercent}%`)

    const status = await page('/status')
    const sonnetRows = rows.filter((row) => row.model === 'claude-sonnet-5-5')
    const haikuRows = rows.filter((row) => row.model === 'claude-haiku-5-5')
    for (const [period, label] of [
      ['day', '近 24 小时'],
      ['week', '近 7 天'],
    ]) {
      expect(textOf(status, `status-claude-sonnet-${period}`)).toBe(`${label} 可用性 ${percent(sonnet, 3)} 附加延迟 < ${medianBound(sonnetRows)} ms ${sonnet} 次调用`)
      expect(textOf(status, `status-claude-haiku-${period}`)).toBe(`${label} 可用性 100% 附加延迟 < ${medianBound(haikuRows)} ms 5 次调用`)
    }

    // Two days on, the last 24 hours are empty and the week still holds every call.
    ctx.clock.advance(2 * 86_400_000)
    const later = await page('/status')
    expect(textOf(later, 'status-claude-haiku-day')).toBe('近 24 小时 无调用')
    expect(textOf(later, 'status-claude-haiku-week')).toContain('5 次调用')
  })

  it('lists every price and package, with what a point is worth against the list price', async () => {
    const pricing = await page('/pricing')
    expect(textOf(pricing, 'point-worth')).toBe('按最划算的套餐「个人版」，1 积分 = ¥0.0413；官方价格取自 2026-11-24，按 1 美元 = ¥7.2 换算。')
    expect(textOf(pricing, 'package-PERSONAL')).toBe(
      '个人版 个人 ¥99.00 个人开发者，每小时补充 100 积分 积分上限 2,400 积分 每小时补充 100 积分 有效期 30 天 每积分 ¥0.0413',
    )
    // Seeded at list price in points (1 point per US cent): Opus 5.5 at $4 / $20; a 1-hour write
    // at twice the input rate and a search at 1 point, neither set on the row.
    expect(textOf(pricing, 'price-claude-opus-5-5')).toBe(
      `claude-opus-5-5 Claude Opus 5.5 输入 400 输出 2,000 缓存读取 20 缓存写入（5 分钟） 500 缓存写入（1 小时） 800 联网搜索（积分 / 次） 1 400 2,000 20 500 800 1 $4 / $20 ${savedPercent}%`,
    )
    expect(textOf(pricing, 'price-claude-sonnet-*')).toContain('匹配所有 claude-sonnet-* 型号')
  })

  it('shows the incidents the operator posts and resolves', async () => {
    const added = await runOperatorCli(ctx, 'incident', 'add', '--title', 'Opus answers slowly', '--body', 'The provider is slow; we are on it.')
    expect(added.code).toBe(0)
    const id = added.stdout.trim()
    expect(textOf(await page('/status'), `incident-${id}`)).toContain('处理中 Opus answers slowly The provider is slow; we are on it.')

    expect((await runOperatorCli(ctx, 'incident', 'resolve', id)).code).toBe(0)
    expect(textOf(await page('/status'), `incident-${id}`)).toContain('已解决 Opus answers slowly')
    const listed = await runOperatorCli(ctx, 'incident', 'list')
    expect(listed.stdout).toMatch(new RegExp(`^${id}  .+  resolved .+  Opus answers slowly$`, 'm'))
    expect(listed.stdout).toContain('1 incident(s)')
    expect((await runOperatorCli(ctx, 'incident', 'resolve', id)).code).not.toBe(0)
  })
})
