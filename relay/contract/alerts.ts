/**
 * Alerts that reach a person (docs/observability.md "Webhook alerts"): webhooks the operator
 * registers, the incidents the relays detect, and each message's delivery through the durable
 * queue. `auth: 'admin'` under `/api/admin` like every console call.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { contentLanguages } from './languages.ts'
import { pagedSchema, pageQuery } from './paging.ts'
import { idPathParams } from './paths.ts'

/** `json`: our own JSON, signed with HMAC-SHA256; the others: the chat tools' incoming-webhook formats. */
export const webhookKinds = ['json', 'slack', 'feishu', 'dingtalk', 'wecom'] as const
export type WebhookKind = (typeof webhookKinds)[number]
/** Kinds whose messages are signed with a secret: always for `json`, when one is given for Feishu/Lark and DingTalk. */
export const signableKinds: readonly WebhookKind[] = ['json', 'feishu', 'dingtalk']

/** What the relays watch; `test` is the console's and the CLI's "send test". */
export const alertEvents = ['circuit_open', 'model_unserved', 'provider_errors', 'settlements_lagging', 'database_unreachable', 'points_liability', 'test'] as const
export type AlertEvent = (typeof alertEvents)[number]
/** An incident's first message, its recovery, or a test. */
export const alertPhases = ['firing', 'resolved', 'test'] as const
export type AlertPhase = (typeof alertPhases)[number]
export const deliveryStatuses = ['pending', 'sending', 'sent', 'failed', 'skipped'] as const

export const webhookNameMax = 64

export const addWebhookBody = z.object({
  name: z.string().trim().min(1).max(webhookNameMax),
  kind: z.enum(webhookKinds),
  /** The receiver's address; for Slack, WeCom and DingTalk it holds their token, so it is stored sealed. */
  url: z.url({ protocol: /^https?$/ }).max(2000),
  /** `json`: made when not given. Feishu/Lark, DingTalk: their "signature" secret, if the bot has one. Slack, WeCom: none. */
  secret: z.string().trim().min(8).max(200).optional(),
  language: z.enum(contentLanguages).default('zh'),
})
export type NewWebhook = z.output<typeof addWebhookBody>

export const webhookSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    kind: z.enum(webhookKinds),
    /** Scheme and host, then the address's last four characters: enough to tell webhooks apart. */
    url_hint: z.string(),
    signed: z.boolean(),
    language: z.enum(contentLanguages),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'AlertWebhook' })
export type AlertWebhook = z.output<typeof webhookSchema>

/** The new webhook, with the `json` kind's signing secret, shown this once. */
export const addedWebhookSchema = webhookSchema.extend({ secret: z.string().nullable() }).meta({ id: 'AddedAlertWebhook' })

export const alertIncidentSchema = z
  .object({
    id: idSchema,
    event: z.enum(alertEvents),
    /** What it is about: a provider's name, a model, a relay instance… */
    subject: z.string(),
    opened_timestamp: timestampSchema,
    resolved_timestamp: timestampSchema.nullable(),
  })
  .meta({ id: 'AlertIncident' })

export const webhookDeliverySchema = z
  .object({
    id: idSchema,
    webhook_id: idSchema,
    webhook_name: z.string(),
    event: z.enum(alertEvents),
    phase: z.enum(alertPhases),
    subject: z.string(),
    status: z.enum(deliveryStatuses),
    attempts: z.int(),
    /** While pending: when it is tried next. */
    next_attempt_timestamp: timestampSchema.nullable(),
    last_error: z.string().nullable(),
    create_timestamp: timestampSchema,
    sent_timestamp: timestampSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' })
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>

export const alertsSchema = z
  .object({
    webhooks: z.array(webhookSchema),
    /** Incidents still open, newest first. */
    open_incidents: z.array(alertIncidentSchema),
    deliveries: pagedSchema(webhookDeliverySchema),
  })
  .meta({ id: 'Alerts' })

const tag = 'admin'

export const alertEndpoints = {
  alerts: endpoint({
    method: 'get',
    path: '/api/admin/alerts',
    summary: 'Alert webhooks, the incidents open now and the latest deliveries with their state',
    tag,
    auth: 'admin',
    query: pageQuery,
    response: alertsSchema,
  }),
  addWebhook: endpoint({
    method: 'post',
    path: '/api/admin/alerts/webhooks',
    summary: 'Register an alert webhook; its address and secret are stored sealed',
    tag,
    auth: 'admin',
    body: addWebhookBody,
    response: addedWebhookSchema,
    idempotent: true,
    errors: ['business_rule'],
  }),
  removeWebhook: endpoint({
    method: 'post',
    path: '/api/admin/alerts/webhooks/{id}/remove',
    summary: 'Remove an alert webhook: its deliveries not yet made are dropped',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: z.object({}),
    response: z.object({ id: idSchema }),
    errors: ['not_found'],
  }),
  testWebhook: endpoint({
    method: 'post',
    path: '/api/admin/alerts/webhooks/{id}/test',
    summary: 'Queue a test message to an alert webhook; it is delivered like an alert',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: z.object({}),
    response: webhookDeliverySchema,
    idempotent: true,
    errors: ['not_found'],
  }),
}
