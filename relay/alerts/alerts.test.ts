import { createHmac, timingSafeEqual } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { alertEndpoints } from '../contract/alerts.ts'
import { brandName } from '../contract/brand.ts'
import type { Endpoint } from '../contract/endpoint.ts'
import { retryDelayMs } from '../notifications/delivery-queue.ts'
import { providerLabel } from '../proxy/providers.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser, type PointsUser } from '../../tests/fixtures/points.ts'
import { addTestProvider, callRelay, customer, priceModel, type Customer } from '../../tests/fixtures/proxy.ts'
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../tests/fixtures/webhook-receiver.ts'
import { signatureHeader } from './formats.ts'

/** Circuits that open after three failures; checks and sends every 100 ms, so an alert is out well within 10 s. */
const config = { providerRetryBackoffMs: 1, providerBreakerFailures: 3, providerBreakerWindowMs: 60_000, providerBreakerCoolDownMs: 30_000, alertCheckMs: 100, mailPollMs: 100 }

/** The receiver's side of the signature check, as docs/observability.md shows it. */
function verified(secret: string, message: ReceivedWebhook): Record<string, unknown> {
  const header = String(message.headers[signatureHeader])
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('='))) as { t: string; v1: string }
  const expected = createHmac('sha256', secret).update(`${t}.${message.body}`).digest()
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) throw new Error(`bad signature: ${header}`)
  return JSON.parse(message.body) as Record<string, unknown>
}

describeEachDatabase(
  'alerts to webhooks',
  (ctx) => {
    let receiver: WebhookReceiver
    let broken: FakeProvider
    let backup: FakeProvider
    let operator: PointsUser
    let secret: string
    let user: Customer

    beforeAll(async () => {
      ;[receiver, broken, backup] = await Promise.all([startWebhookReceiver(), startFakeProvider(), startFakeProvider()])
      operator = await quickUser(ctx)
      await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
      const added = await ctx.call(alertEndpoints.addWebhook, { token: operator.token, body: { name: 'on call', kind: 'json', url: receiver.url, language: 'en' } })
      secret = added.secret!
      expect(secret).toMatch(/^whsec_/)
      user = await customer(ctx, 1000)
    })
    afterAll(async () => {
      await Promise.all([receiver?.close(), broken?.close(), backup?.close()])
    })
    afterEach(async () => {
      broken.reset()
      await expectLedgerInvariants(ctx.relay.db)
    })

    /** A model served by `broken` first and `backup` second, so calls succeed while `broken`'s circuit is open. */
    async function failingProvider(model: string): Promise<string> {
      await priceModel(ctx, { model, kind: 'fixed', points_per_call: 1 })
      const id = await addTestProvider(ctx, { kind: 'anthropic', baseUrl: broken.url, models: [model], priority: 10 })
      await addTestProvider(ctx, { kind: 'anthropic', baseUrl: backup.url, models: [model], priority: 5 })
      return id
    }
    const call = async (model: string) => {
      const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    /** Three failures in a row: the circuit opens. */
    const openCircuit = async (model: string) => {
      broken.behaviour = { kind: 'fail', status: 500 }
      for (let i = 0; i < 3; i++) await call(model)
    }
    /** After the cool-down a call is the trial; it succeeds, so the circuit closes. */
    const heal = async (model: string) => {
      ctx.clock.advance(config.providerBreakerCoolDownMs)
      broken.reset()
      await call(model)
    }
    const deliveries = () => ctx.call(alertEndpoints.alerts, { token: operator.token, query: { pageSize: 100 } })

    it('refuses every alert call to a user who is not an admin, as a path without a route', async () => {
      const normal = await quickUser(ctx)
      for (const endpoint of Object.values(alertEndpoints) as Endpoint[]) {
        // One input for every call of the group, hence the cast: the refusal comes before any input is read.
        const reply = await ctx.refusal(endpoint, { params: { id: '1' }, token: normal.token } as never)
        expect(reply.status, endpoint.path).toBe(404)
      }
    })

    it("sends one signed alert within 10 s when a provider's circuit opens, none while it stays open, and one when it closes", async () => {
      const model = 'alert-a'
      await failingProvider(model)
      const label = providerLabel({ kind: 'anthropic', base_url: broken.url })
      const started = performance.now()
      await openCircuit(model)
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(1)
      expect(performance.now() - started).toBeLessThan(10_000)
      const opened = verified(secret, receiver.received[0]!)
      expect(opened).toMatchObject({ event: 'circuit_open', phase: 'firing', subject: label, title: `Provider ${label} circuit open`, resolved_at: null })

      // Still open, calls go on around it: every check since found the incident open, and nothing more was sent.
      await call(model)
      await ctx.relay.drainAlerts()
      expect(receiver.received).toHaveLength(1)

      await heal(model)
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(2)
      const closed = verified(secret, receiver.received[1]!)
      expect(closed).toMatchObject({ event: 'circuit_open', phase: 'resolved', subject: label, incident_id: opened.incident_id, title: `Recovered: provider ${label} circuit closed` })
      await ctx.relay.drainAlerts()
      expect(receiver.received).toHaveLength(2)

      const listed = await deliveries()
      expect(listed.open_incidents.filter((incident) => incident.subject === label)).toEqual([])
      expect(listed.deliveries.items.slice(0, 2)).toMatchObject([
        { phase: 'resolved', status: 'sent', attempts: 1, webhook_name: 'on call', subject: label },
        { phase: 'firing', status: 'sent', attempts: 1, webhook_name: 'on call', subject: label },
      ])
    })

    it('retries an alert while the receiver is down and delivers it once when it is back', async () => {
      const model = 'alert-b'
      await failingProvider(model)
      const before = receiver.received.length
      await receiver.stop()
      await openCircuit(model)
      const firing = async () => (await deliveries()).deliveries.items.find((d) => d.phase === 'firing' && d.subject === providerLabel({ kind: 'anthropic', base_url: broken.url }))
      // Tried, refused, due again after the first back-off.
      await expect.poll(async () => (await firing())?.last_error ?? null, { timeout: 10_000, interval: 50 }).not.toBeNull()
      expect(await firing()).toMatchObject({ status: 'pending', attempts: 1 })
      await ctx.relay.drainAlerts()
      expect((await firing())!.attempts).toBe(1)

      await receiver.start()
      ctx.clock.advance(retryDelayMs(1))
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(before + 1)
      expect(verified(secret, receiver.received[before]!)).toMatchObject({ event: 'circuit_open', phase: 'firing' })
      expect(await firing()).toMatchObject({ status: 'sent', attempts: 2 })
      await ctx.relay.drainAlerts()
      expect(receiver.received).toHaveLength(before + 1)

      await heal(model)
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(before + 2)
      expect(verified(secret, receiver.received[before + 1]!)).toMatchObject({ phase: 'resolved' })
    })

    it('tells once that models are left without a healthy provider, beside the circuit, and once when they are served again', async () => {
      const model = 'alert-c'
      await priceModel(ctx, { model, kind: 'fixed', points_per_call: 1 })
      await addTestProvider(ctx, { kind: 'anthropic', baseUrl: broken.url, models: ['alert-c*'], priority: 10 })
      const before = receiver.received.length
      broken.behaviour = { kind: 'fail', status: 500 }
      for (let i = 0; i < 3; i++) {
        const response = await callRelay(ctx, '/v1/messages', { key: user.key, body: { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } })
        expect(response.status).toBe(502)
        await response.arrayBuffer()
      }
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(before + 2)
      await ctx.relay.drainAlerts()
      expect(receiver.received).toHaveLength(before + 2)
      const firing = receiver.received.slice(before).map((message) => verified(secret, message))
      expect(firing.map((m) => m.event).sort()).toEqual(['circuit_open', 'model_unserved'])
      expect(firing.find((m) => m.event === 'model_unserved')).toMatchObject({ phase: 'firing', title: '1 model has no healthy provider', details: { models: [model] } })

      await heal(model)
      await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBe(before + 4)
      const resolved = receiver.received.slice(before + 2).map((message) => verified(secret, message))
      expect(resolved.map((m) => [m.event, m.phase]).sort()).toEqual([['circuit_open', 'resolved'], ['model_unserved', 'resolved']])
    })

    it('adds, lists, tests and removes a webhook from the CLI; the audit log has each', async () => {
      const added = await runOperatorCli(ctx, 'webhook', 'add', '--name', 'team chat', '--kind', 'slack', '--url', `${receiver.url}/slack/T000/B000/XXXXsecret`, '--language', 'zh')
      expect(added.code, added.stderr).toBe(0)
      const id = added.stdout.trim()
      const listed = await runOperatorCli(ctx, 'webhook', 'list')
      expect(listed.stdout).toContain(`${id}  slack     zh    no      team chat  http://127.0.0.1:`)
      expect(listed.stdout).not.toContain('XXXXsecret')
      const before = receiver.received.length
      const tested = await runOperatorCli(ctx, 'webhook', 'test', id)
      expect(tested.stdout).toMatch(/^delivered \(delivery \d+\)$/)
      expect(receiver.received).toHaveLength(before + 1)
      expect(JSON.parse(receiver.received[before]!.body)).toEqual({ text: `${brandName.zh} 测试告警\nWebhook「team chat」可以收到告警。` })
      expect((await runOperatorCli(ctx, 'webhook', 'remove', id)).stdout).toBe(`webhook ${id} removed`)
      expect((await runOperatorCli(ctx, 'webhook', 'list')).stdout).not.toContain(id)
      const audit = await ctx.relay.db.selectFrom('audit_log').select(['action', 'after', 'before']).where('target_ref', '=', id).orderBy('id').execute()
      expect(audit.map((row) => row.action)).toEqual(['alert_webhook.add', 'alert_webhook.test', 'alert_webhook.remove'])
      expect(JSON.stringify(audit)).not.toContain('XXXXsecret')
    })
  },
  config,
)
