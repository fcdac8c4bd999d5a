import type { Kysely } from 'kysely'

/** Operator-managed resource links shown on every user's profile page (relay/resources). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('resource_links')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('title', 'varchar(120)', (col) => col.notNull())
    .addColumn('url', 'varchar(512)', (col) => col.notNull())
    .addColumn('description', 'varchar(500)')
    .addColumn('sort_order', 'integer', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    // Kept after removal so "last updated" also moves when a link goes away.
    .addColumn('removed_timestamp', 'bigint')
    .execute()
}
