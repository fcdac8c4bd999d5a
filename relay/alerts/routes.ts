/**
 * The console's alert calls (relay/contract/alerts.ts): thin handlers over the service functions
 * the CLI runs (alerts/cli.ts), each given the calling admin and address as the audit log's operator.
 */
import { consoleOperator } from '../audit/audit-log.ts'
import { alertEndpoints } from '../contract/alerts.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { listDeliveries, testWebhookAsOperator } from './deliveries.ts'
import { activeWebhooks, addWebhookAsOperator, removeWebhookAsOperator, toWebhook } from './webhooks.ts'

export function alertRoutes(services: RelayServices): Route[] {
  const { db } = services
  return [
    defineRoute(alertEndpoints.alerts, async ({ query }) => {
      const [webhooks, open, deliveries] = await Promise.all([
        activeWebhooks(db),
        db.selectFrom('alert_incidents').select(['id', 'event', 'subject', 'opened_timestamp', 'resolved_timestamp']).where('open_key', 'is not', null).orderBy('id', 'desc').execute(),
        listDeliveries(db, query),
      ])
      return { webhooks: webhooks.map(toWebhook), open_incidents: open, deliveries }
    }),
    defineRoute(alertEndpoints.addWebhook, async ({ user, clientIp, body }) => addWebhookAsOperator(services, consoleOperator(user, clientIp), body)),
    defineRoute(alertEndpoints.removeWebhook, async ({ user, clientIp, params }) => {
      await removeWebhookAsOperator(services, consoleOperator(user, clientIp), params.id)
      return { id: params.id }
    }),
    defineRoute(alertEndpoints.testWebhook, async ({ user, clientIp, params }) => testWebhookAsOperator(services, consoleOperator(user, clientIp), params.id)),
  ]
}
