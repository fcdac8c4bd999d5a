import type { Kysely } from 'kysely'

/**
 * Alerts that reach a person (relay/alerts): the webhooks operators register (address and secret
 * sealed), the incidents the relays detect (one open row per thing that is wrong), and each
 * message to each webhook, delivered by the mail queue's machinery (notifications/delivery-queue.ts).
 *
 * And the console's hourly aggregates count calls by how they ended, as `relay_calls_total`
 * labels them (admin/overview.ts), and the relay's own refusals apart. Hours aggregated before
 * this migration count 0 of these (their `calls` still include the relay's refusals).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alert_webhooks')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('name', 'varchar(64)', (col) => col.notNull())
    // 'json', 'slack', 'feishu', 'dingtalk', 'wecom'.
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    // Sealed like the providers' keys (proxy/provider-keys.ts): chat webhooks carry their token in the address.
    .addColumn('url_ciphertext', 'text', (col) => col.notNull())
    .addColumn('url_hint', 'varchar(128)', (col) => col.notNull())
    .addColumn('secret_ciphertext', 'text')
    .addColumn('language', 'varchar(8)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    // Removed webhooks stay, so the deliveries made to them keep their name.
    .addColumn('removed_timestamp', 'bigint')
    .execute()

  await db.schema
    .createTable('alert_incidents')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('event', 'varchar(32)', (col) => col.notNull())
    .addColumn('subject', 'varchar(200)', (col) => col.notNull())
    // `<event>:<subject id>` while open, null once resolved: the unique index lets one relay open it.
    .addColumn('open_key', 'varchar(200)', (col) => col.unique())
    // JSON of the figures the messages quote.
    .addColumn('details', 'text', (col) => col.notNull())
    .addColumn('opened_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('resolved_timestamp', 'bigint')
    .execute()

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('webhook_id', 'bigint', (col) => col.notNull())
    // Null for a test message.
    .addColumn('incident_id', 'bigint')
    .addColumn('event', 'varchar(32)', (col) => col.notNull())
    // 'firing', 'resolved', 'test'.
    .addColumn('phase', 'varchar(16)', (col) => col.notNull())
    .addColumn('subject', 'varchar(200)', (col) => col.notNull())
    // The queue's columns, as mail_queue's (0030-notifications.ts).
    .addColumn('dedupe_key', 'varchar(128)', (col) => col.notNull().unique())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_by', 'varchar(128)')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('sent_timestamp', 'bigint')
    .execute()
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute()

  for (const column of ['answered', 'cut', 'refused', 'relay_refused'] as const) {
    await db.schema.alterTable('ops_call_hours').addColumn(column, 'integer', (col) => col.notNull().defaultTo(0)).execute()
  }
}
