import type { Kysely } from 'kysely'

/**
 * The operators' audit log (relay/audit/audit-log.ts, docs/decisions/116-operator-audit-log.md): one row per action an
 * operator took, from the console or the CLI, with what it changed. Rows are only ever inserted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    // 'admin' (the console: actor_id is the admin's user id) or 'cli' (actor_name is the OS user).
    .addColumn('actor_kind', 'varchar(8)', (col) => col.notNull())
    .addColumn('actor_id', 'bigint')
    // The admin's username at the time, or the OS user who ran the CLI.
    .addColumn('actor_name', 'varchar(64)', (col) => col.notNull())
    // The console caller's address; null from the CLI.
    .addColumn('client_ip', 'varchar(64)')
    .addColumn('action', 'varchar(48)', (col) => col.notNull())
    // What was acted on: a kind ('ticket', 'user', 'redeem_batch', …) and its id or code.
    .addColumn('target_kind', 'varchar(24)', (col) => col.notNull())
    .addColumn('target_ref', 'varchar(64)', (col) => col.notNull())
    // JSON of the state before and after, null where there is none (a creation has no before).
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('audit_log_created').on('audit_log').column('create_timestamp').execute()
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_kind', 'target_ref']).execute()
}
