import type { Kysely } from 'kysely'

/**
 * What a running deployment tells the tools that share its database (relay/deployment): one row
 * per setting, e.g. the public address the server was started with, which the operator CLI
 * prints links on (docs/decisions/033-cli-tutorial-and-first-start.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deployment_settings')
    .addColumn('name', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .execute()
}
