import type { Kysely } from 'kysely'

/** API keys (relay/keys): only a SHA-256 digest of each key is kept (docs/decisions/050-api-keys-and-their-limits.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('name', 'varchar(64)', (col) => col.notNull())
    // The unique index is the authentication lookup: one indexed read per proxied call.
    .addColumn('key_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('last4', 'varchar(4)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('last_used_timestamp', 'bigint')
    // Deleted keys stay as rows so usage records of the metered proxy keep their key.
    .addColumn('deleted_at', 'bigint')
    .execute()
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute()
}
