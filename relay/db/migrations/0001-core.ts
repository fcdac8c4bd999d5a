import type { Kysely } from 'kysely'

/** Tables the HTTP core needs whatever the domain: rate-limit counters. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(300)', (col) => col.primaryKey())
    .addColumn('window_start', 'bigint', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .execute()
}
