/**
 * The alert webhooks operators register, from the console (alerts/routes.ts) and the CLI
 * (alerts/cli.ts) alike: each change and its audit row in one transaction. Addresses and secrets
 * are sealed (proxy/provider-keys.ts): Slack's, WeCom's and DingTalk's addresses carry their token.
 */
import { randomBytes } from 'node:crypto'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { signableKinds, type AlertWebhook, type NewWebhook } from '../contract/alerts.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { AlertWebhooksTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { SecretBox } from '../proxy/provider-keys.ts'
import type { RelayServices } from '../services.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

export function webhookBox(config: Pick<RelayServices['config'], 'jwtSecrets'>): SecretBox {
  return new SecretBox(config.jwtSecrets, 'relay-alert-webhooks')
}

/** `https://hooks.slack.com/…X9k2`: the receiver, and enough of the address to tell two apart. */
export function urlHint(url: string): string {
  const { origin } = new URL(url)
  return url.length > origin.length + 8 ? `${origin}/…${url.slice(-4)}` : origin
}

export function toWebhook(row: AlertWebhooksTable): AlertWebhook {
  return { id: row.id, name: row.name, kind: row.kind, url_hint: row.url_hint, signed: row.secret_ciphertext !== null, language: row.language, create_timestamp: row.create_timestamp }
}

/** Webhooks not removed, oldest first. */
export async function activeWebhooks(db: Database): Promise<AlertWebhooksTable[]> {
  return db.selectFrom('alert_webhooks').selectAll().where('removed_timestamp', 'is', null).orderBy('id').execute()
}

/** The `json` kind's secret is made here when none is given, and shown once. */
export async function addWebhookAsOperator(services: Services, operator: Operator, input: NewWebhook): Promise<AlertWebhook & { secret: string | null }> {
  if (input.secret !== undefined && !signableKinds.includes(input.kind)) throw new RelayError('business_rule', `a ${input.kind} webhook is not signed: its address is its secret`)
  const secret = input.secret ?? (input.kind === 'json' ? `whsec_${randomBytes(24).toString('base64url')}` : null)
  const box = webhookBox(services.config)
  const now = services.clock.now()
  const row: AlertWebhooksTable = {
    id: newId(),
    name: input.name,
    kind: input.kind,
    url_ciphertext: box.seal(input.url),
    url_hint: urlHint(input.url),
    secret_ciphertext: secret === null ? null : box.seal(secret),
    language: input.language,
    create_timestamp: now,
    removed_timestamp: null,
  }
  const webhook = toWebhook(row)
  await services.db.transaction().execute(async (trx) => {
    await trx.insertInto('alert_webhooks').values(row).execute()
    await recordAudit(trx, operator, { action: 'alert_webhook.add', target: { kind: 'alert_webhook', ref: row.id }, after: webhook }, now)
  })
  return { ...webhook, secret: input.kind === 'json' ? secret : null }
}

/** A webhook not removed, or not found. */
export async function activeWebhook(db: Database, id: string): Promise<AlertWebhooksTable> {
  const row = await db.selectFrom('alert_webhooks').selectAll().where('id', '=', id).where('removed_timestamp', 'is', null).executeTakeFirst()
  if (!row) throw new RelayError('not_found', `no webhook ${id}`)
  return row
}

/** Its messages not yet delivered are dropped; those made stay listed under its name. */
export async function removeWebhookAsOperator(services: Services, operator: Operator, id: string): Promise<void> {
  const now = services.clock.now()
  await services.db.transaction().execute(async (trx) => {
    const row = await activeWebhook(trx, id)
    await trx.updateTable('alert_webhooks').set({ removed_timestamp: now }).where('id', '=', id).execute()
    await trx.updateTable('webhook_deliveries').set({ status: 'skipped' }).where('webhook_id', '=', id).where('status', '=', 'pending').execute()
    await recordAudit(trx, operator, { action: 'alert_webhook.remove', target: { kind: 'alert_webhook', ref: id }, before: toWebhook(row) }, now)
  })
}
