import { afterAll, beforeAll, expect, it } from 'vitest'
import { alertEndpoints } from '../contract/alerts.ts'
import { fillPath } from '../contract/paths.ts'
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { quickUser } from '../../tests/fixtures/points.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'
import { startTcpProxy, type TcpProxy } from '../../tests/fixtures/tcp-proxy.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../tests/fixtures/webhook-receiver.ts'

/**
 * The database's own outage cannot be queued in it: the relay posts it from memory, and records
 * it with its recovery once the database answers. The relay reaches PostgreSQL through a loopback
 * TCP proxy the test cuts.
 */
describeOnPostgres('an alert for the database going away', () => {
  let database: TestDatabase
  let proxy: TcpProxy
  let ctx: TestRelay
  let receiver: WebhookReceiver

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    const direct = new URL(process.env.TEST_DATABASE_URL!)
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    const proxied = new URL(process.env.TEST_DATABASE_URL!)
    proxied.hostname = '127.0.0.1'
    proxied.port = String(proxy.port)
    // Checks far more often than sends: the check that reads the new webhook runs before its test message is out.
    ctx = await startTestRelay({ url: proxied.toString(), searchPath: database.searchPath }, { databaseTimeoutMs: 1000, alertCheckMs: 50, mailPollMs: 500 })
    receiver = await startWebhookReceiver()
  })
  afterAll(async () => {
    proxy?.restore()
    await ctx?.close()
    await receiver?.close()
    await proxy?.close()
    await database?.dispose()
  })

  it('is told at once while the database is down, and its recovery once it is back, each once', async () => {
    const operator = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
    const added = await ctx.request('POST', alertEndpoints.addWebhook.path, { token: operator.token, body: { name: 'pager', kind: 'slack', url: receiver.url, language: 'en' } })
    await ctx.request('POST', fillPath(alertEndpoints.testWebhook.path, { id: added.body.data.id }), { token: operator.token, body: {} })
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(1)
    const statuses = async () => (await ctx.request('GET', alertEndpoints.alerts.path, { token: operator.token })).body.data.deliveries.items.map((d: { status: string }) => d.status)
    // Recorded as sent before the link goes (a cut between the two would send it again when its claim ran out).
    await expect.poll(statuses, { timeout: 10_000, interval: 50 }).toEqual(['sent'])

    proxy.cut()
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(2)
    expect(JSON.parse(receiver.received[1]!.body).text).toMatch(new RegExp(`^${ctx.config.instance} cannot reach its database\\n`))
    proxy.restore()
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(3)
    expect(JSON.parse(receiver.received[2]!.body).text).toMatch(new RegExp(`^Recovered: ${ctx.config.instance} reaches its database\\n`))

    await ctx.relay.drainAlerts()
    expect(receiver.received).toHaveLength(3)
    const deliveries = (await ctx.request('GET', alertEndpoints.alerts.path, { token: operator.token })).body.data.deliveries.items
    expect(deliveries.map((d: { event: string; phase: string; status: string }) => [d.event, d.phase, d.status])).toEqual([
      ['database_unreachable', 'resolved', 'sent'],
      ['database_unreachable', 'firing', 'sent'],
      ['test', 'test', 'sent'],
    ])
  })
})
