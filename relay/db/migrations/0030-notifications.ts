import type { Kysely } from 'kysely'

/**
 * Mail that matters (relay/notifications, docs/decisions/125-mail-and-announcements.md): the queue the background sender
 * delivers from, each user's choices (which kinds, the balance threshold, the language mails are
 * written in) and the devices a user signed in from, to tell a new one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    // 'balance_low', 'package_expiring', 'package_expired', 'ticket_reply', 'new_sign_in'.
    .addColumn('event', 'varchar(32)', (col) => col.notNull())
    // One row per event, e.g. `expiring:<subscription>:<user>`: a second enqueue of it is ignored.
    .addColumn('dedupe_key', 'varchar(128)', (col) => col.notNull().unique())
    // JSON of what the mail says (a ticket number, a balance…); rendered when sent.
    .addColumn('payload', 'text', (col) => col.notNull())
    // 'pending', 'sending' (claimed by a sender until next_attempt_at), 'sent', 'failed', 'skipped'.
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_by', 'varchar(128)')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('sent_timestamp', 'bigint')
    .execute()
  await db.schema.createIndex('mail_queue_due').on('mail_queue').columns(['status', 'next_attempt_at']).execute()

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'bigint', (col) => col.primaryKey())
    // 'zh', 'en' or 'ja': the language of the user's last sign-in or of the settings page.
    .addColumn('language', 'varchar(8)', (col) => col.notNull())
    .addColumn('balance_low', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('package_expiry', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('ticket_reply', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('new_sign_in', 'integer', (col) => col.notNull().defaultTo(1))
    // Points; null: no balance mail.
    .addColumn('balance_threshold', 'integer')
    // 1 while the balance is below the threshold (mailed once per crossing); crossings counts them.
    .addColumn('balance_below', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('balance_crossings', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('notification_settings_threshold').on('notification_settings').column('balance_threshold').execute()

  await db.schema
    .createTable('sign_in_devices')
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    // SHA-256 of the browser's User-Agent and the address's network (/24, or /48 for IPv6).
    .addColumn('device_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('first_seen', 'bigint', (col) => col.notNull())
    .addColumn('last_seen', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('sign_in_devices_pk', ['user_id', 'device_hash'])
    .execute()
}
