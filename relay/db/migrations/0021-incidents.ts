import type { Kysely } from 'kysely'

/** Incidents the operator posts on the status page (`incident add|list|resolve`, public-stats/incidents.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('incidents')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('body', 'text')
    .addColumn('start_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('resolved_timestamp', 'bigint')
    .execute()
  await db.schema.createIndex('incidents_start').on('incidents').column('start_timestamp').execute()
}
