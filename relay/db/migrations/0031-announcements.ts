import type { Kysely } from 'kysely'

/**
 * Announcements operators post for signed-in users (relay/announcements, docs/decisions/125-mail-and-announcements.md): a
 * level, a text per language and a window; and who dismissed which.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('announcements')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    // 'info', 'warning' or 'critical'.
    .addColumn('level', 'varchar(16)', (col) => col.notNull())
    .addColumn('message_zh', 'varchar(1000)', (col) => col.notNull())
    .addColumn('message_en', 'varchar(1000)', (col) => col.notNull())
    .addColumn('message_ja', 'varchar(1000)', (col) => col.notNull())
    .addColumn('starts_at', 'bigint', (col) => col.notNull())
    .addColumn('ends_at', 'bigint', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('announcements_window').on('announcements').columns(['ends_at', 'starts_at']).execute()

  await db.schema
    .createTable('announcement_dismissals')
    .addColumn('announcement_id', 'bigint', (col) => col.notNull())
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('announcement_dismissals_pk', ['announcement_id', 'user_id'])
    .execute()
}
