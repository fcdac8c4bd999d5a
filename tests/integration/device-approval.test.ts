/**
 * The device-code approval screen as a browser without JavaScript sees it: besides the client,
 * its permissions and the requesting address, when the request started and how long ago, so a
 * person can tell a request they did not make (a phishing link) from their own.
 */
import { parse } from 'node-html-parser'
import { beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../fixtures/databases.ts'
import { registerClient, startDevice } from '../fixtures/oauth.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { textOf } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
const { signedIn } = portalOverRelay(() => target!)

describeEachDatabase('device-code approval screen', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  it('shows when the request started, and how long ago', async () => {
    const visitor = await signedIn(await ctx.signUp())
    const client = await registerClient(ctx, { name: 'Phish Check CLI' })
    const started = ctx.clock.now()
    const device = await startDevice(ctx, client, ['api'])
    const confirm = await visitor.submit('/auth/device-code', { code: device.device_code })
    expect(confirm.status).toBe(200)
    const html = await confirm.text()
    expect(textOf(html, 'device-started')).toMatch(/^发起时间 \d{4}\/\d{2}\/\d{2} UTC \d{2}:\d{2}$/)
    expect(parse(html).querySelector('[data-testid="device-started"] time')?.getAttribute('datetime')).toBe(new Date(started).toISOString())
    expect(textOf(html, 'device-origin')).toMatch(/^该请求(刚刚|于 \d+ 分钟前)从 .+ 发起$/)
  }, 60_000)
})
