import type { Kysely } from 'kysely'

/**
 * Idempotent requests (relay/http/idempotency.ts, docs/decisions/005-forms.md): the first reply to each
 * `Idempotency-Key`, kept a day so a repeated form post gets it again instead of a second effect.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotent_requests')
    // SHA-256 of caller, call and key: the primary key is what makes two claims of one key collide.
    .addColumn('key_hash', 'varchar(64)', (col) => col.primaryKey())
    // Null for calls without a signed-in caller (a password-reset code).
    .addColumn('user_id', 'bigint')
    // HMAC of the request under the key: a key sent again with another request is refused.
    .addColumn('request_mac', 'varchar(64)', (col) => col.notNull())
    // 'pending' while the first request runs, then 'done'.
    .addColumn('state', 'varchar(8)', (col) => col.notNull())
    // The reply's data, AES-256-GCM under a key derived from the idempotency key (never stored).
    .addColumn('response', 'text')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('idempotent_requests_created').on('idempotent_requests').column('create_timestamp').execute()
}
