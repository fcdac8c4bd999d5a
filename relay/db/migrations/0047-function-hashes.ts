import { PostgresAdapter, type Kysely } from 'kysely'

/**
 * PostgreSQL only: `relay_functions`, the hash of each PL/pgSQL function's text as last applied
 * (db/functions.ts). From here on the functions are written in their own files and replaced
 * after the migrations when their text changes; migrations 0036, 0042, 0044 and 0045 stay as
 * shipped, and the functions they made are replaced (or dropped) by that step.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  await db.schema
    .createTable('relay_functions')
    .addColumn('name', 'varchar(63)', (c) => c.primaryKey())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('applied_timestamp', 'bigint', (c) => c.notNull())
    .execute()
}
