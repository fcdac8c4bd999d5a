/**
 * Each alert message to each webhook is a row of `webhook_deliveries`, queued in the transaction
 * that opened or resolved its incident and delivered by the mail queue's machinery
 * (notifications/delivery-queue.ts): retried with back-off while the receiver is down, sent once.
 */
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import type { AlertEvent, AlertPhase, WebhookDelivery } from '../contract/alerts.ts'
import { pageOffset, type PageQuery, type Paged } from '../contract/paging.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { AlertIncidentsTable, AlertWebhooksTable, WebhookDeliveriesTable } from '../db/schema.ts'
import { deliverDue, type Delivered } from '../notifications/delivery-queue.ts'
import type { RelayServices } from '../services.ts'
import { postWebhook, webhookRequest } from './formats.ts'
import { renderAlert, type AlertDetails } from './texts.ts'
import { activeWebhook, activeWebhooks, webhookBox } from './webhooks.ts'

interface Queued {
  webhookId: string
  incidentId: string | null
  event: AlertEvent
  phase: AlertPhase
  subject: string
  dedupeKey: string
  details: unknown
  now: number
  /** A message already delivered outside the queue (the database was down, alerts/monitor.ts): recorded as sent. */
  sentAt?: number
}

export async function queueDelivery(db: Database, item: Queued): Promise<string> {
  const id = newId()
  await db
    .insertInto('webhook_deliveries')
    .values({
      id,
      webhook_id: item.webhookId,
      incident_id: item.incidentId,
      event: item.event,
      phase: item.phase,
      subject: item.subject,
      dedupe_key: item.dedupeKey,
      payload: JSON.stringify(item.details),
      status: item.sentAt === undefined ? 'pending' : 'sent',
      attempts: item.sentAt === undefined ? 0 : 1,
      next_attempt_at: item.now,
      claimed_by: null,
      last_error: null,
      create_timestamp: item.now,
      sent_timestamp: item.sentAt ?? null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute()
  return id
}

/** An incident's opening or recovery, to every webhook: one row each, however many relays saw it. */
export async function queueIncidentMessages(db: Database, incident: Pick<AlertIncidentsTable, 'id' | 'event' | 'subject' | 'details'>, phase: 'firing' | 'resolved', now: number): Promise<void> {
  for (const webhook of await activeWebhooks(db)) {
    await queueDelivery(db, {
      webhookId: webhook.id,
      incidentId: incident.id,
      event: incident.event,
      phase,
      subject: incident.subject,
      dedupeKey: `${incident.id}:${phase}:${webhook.id}`,
      details: JSON.parse(incident.details),
      now,
    })
  }
}

/** The console's and the CLI's "send test": queued like an alert, so it shows whether the queue reaches the receiver. */
export async function testWebhookAsOperator(services: Pick<RelayServices, 'db' | 'clock'>, operator: Operator, webhookId: string): Promise<WebhookDelivery> {
  const now = services.clock.now()
  const id = await services.db.transaction().execute(async (trx) => {
    const webhook = await activeWebhook(trx, webhookId)
    const details: AlertDetails['test'] = { webhook: webhook.name }
    const delivery = await queueDelivery(trx, { webhookId, incidentId: null, event: 'test', phase: 'test', subject: webhook.name, dedupeKey: `test:${newId()}`, details, now })
    await recordAudit(trx, operator, { action: 'alert_webhook.test', target: { kind: 'alert_webhook', ref: webhookId }, after: { delivery } }, now)
    return delivery
  })
  return (await listDeliveries(services.db, { page: 1, pageSize: 1 }, id)).items[0]!
}

/** Renders and signs a message for a webhook (also used by alerts/monitor.ts while the database is down). */
export function alertRequest(
  services: Pick<RelayServices, 'config'>,
  webhook: AlertWebhooksTable,
  alert: { id: string; event: AlertEvent; phase: AlertPhase; incidentId: string | null; subject: string; details: unknown; opened: number | null; resolved: number | null },
  now: number,
) {
  const box = webhookBox(services.config)
  const url = box.open(webhook.url_ciphertext)
  const secret = webhook.secret_ciphertext === null ? null : box.open(webhook.secret_ciphertext)
  if (url === null || (webhook.secret_ciphertext !== null && secret === null)) throw new Error('no configured JWT secret opens this webhook: add it again')
  const message = renderAlert(alert.event, alert.phase, alert.details as never, webhook.language, { opened: alert.opened ?? now, resolved: alert.resolved })
  const envelope = { id: alert.id, event: alert.event, phase: alert.phase, incident_id: alert.incidentId, subject: alert.subject, message, details: alert.details, opened_at: alert.opened, resolved_at: alert.resolved }
  return webhookRequest(webhook.kind, url, secret, envelope, now)
}

async function deliver(services: RelayServices, row: WebhookDeliveriesTable): Promise<Delivered> {
  const { db, clock } = services
  const webhook = await db.selectFrom('alert_webhooks').selectAll().where('id', '=', row.webhook_id).executeTakeFirst()
  if (!webhook || webhook.removed_timestamp !== null) return 'skipped'
  const incident = row.incident_id === null ? undefined : await db.selectFrom('alert_incidents').select(['opened_timestamp', 'resolved_timestamp']).where('id', '=', row.incident_id).executeTakeFirst()
  const request = alertRequest(
    services,
    webhook,
    {
      id: row.id,
      event: row.event,
      phase: row.phase,
      incidentId: row.incident_id,
      subject: row.subject,
      details: JSON.parse(row.payload),
      opened: incident?.opened_timestamp ?? null,
      resolved: row.phase === 'resolved' ? (incident?.resolved_timestamp ?? null) : null,
    },
    clock.now(),
  )
  await postWebhook(webhook.kind, request)
  return 'sent'
}

/** Delivers every alert message due now; returns how many were sent. */
export function sendDueAlerts(services: RelayServices): Promise<number> {
  return deliverDue<WebhookDeliveriesTable>(services, 'webhook_deliveries', (row) => deliver(services, row), (row) => ({ webhook: row.webhook_id, event: row.event, phase: row.phase }))
}

/** Newest first, with the webhook's name (removed ones too); `id`: that one delivery. */
export async function listDeliveries(db: Database, page: PageQuery, id?: string): Promise<Paged<WebhookDelivery>> {
  let query = db.selectFrom('webhook_deliveries as d').innerJoin('alert_webhooks as w', 'w.id', 'd.webhook_id')
  if (id !== undefined) query = query.where('d.id', '=', id)
  const [rows, total] = await Promise.all([
    query
      .select(['d.id', 'd.webhook_id', 'w.name as webhook_name', 'd.event', 'd.phase', 'd.subject', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.last_error', 'd.create_timestamp', 'd.sent_timestamp'])
      .orderBy('d.id', 'desc')
      .limit(page.pageSize)
      .offset(pageOffset(page))
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ])
  return {
    items: rows.map(({ next_attempt_at, ...row }) => ({ ...row, next_attempt_timestamp: row.status === 'pending' ? next_attempt_at : null })),
    total: Number(total.count),
    page: page.page,
    pageSize: page.pageSize,
  }
}
