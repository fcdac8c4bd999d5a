import type { Kysely } from 'kysely'

/**
 * The metered relay (relay/proxy): upstream providers, and one row per forwarded call holding
 * only what billing needs (docs/architecture.md §6 "no conversation content is kept": model, token counts,
 * points, time, key, caller IP, outcome; never a prompt or a completion).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('proxy_providers')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('base_url', 'varchar(500)', (col) => col.notNull())
    // AES-256-GCM under a key derived from JWT_SECRET (docs/decisions/071-secrets-sealed-with-jwt-secret.md); never shown again.
    .addColumn('key_ciphertext', 'text', (col) => col.notNull())
    // The start and end of the key, for `provider list`.
    .addColumn('key_hint', 'varchar(32)', (col) => col.notNull())
    // JSON array of glob patterns over model names.
    .addColumn('models', 'text', (col) => col.notNull())
    .addColumn('priority', 'integer', (col) => col.notNull())
    .addColumn('disabled_timestamp', 'bigint')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('proxy_calls')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('key_id', 'bigint', (col) => col.notNull().references('api_keys.id'))
    // No reference: a provider can be removed while its calls stay on record.
    .addColumn('provider_id', 'bigint')
    .addColumn('api', 'varchar(16)', (col) => col.notNull())
    .addColumn('model', 'varchar(128)', (col) => col.notNull())
    .addColumn('streamed', 'integer', (col) => col.notNull())
    .addColumn('outcome', 'varchar(16)', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('input_tokens', 'integer', (col) => col.notNull())
    .addColumn('output_tokens', 'integer', (col) => col.notNull())
    .addColumn('cache_read_tokens', 'integer', (col) => col.notNull())
    .addColumn('cache_write_tokens', 'integer', (col) => col.notNull())
    .addColumn('points', 'integer', (col) => col.notNull())
    .addColumn('client_ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('proxy_calls_user').on('proxy_calls').columns(['user_id', 'create_timestamp']).execute()
}
