import type { Kysely } from 'kysely'

/**
 * Registered clients and what they hold (relay/oauth): authorisation codes, device codes and
 * refresh tokens. Every code, secret and token is kept only as a SHA-256 digest. Rows refer to a
 * client by its public `client_id`, so removing a client removes its rows by that one value.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('client_id', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    .addColumn('secret_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('redirect_uris', 'text', (col) => col.notNull())
    .addColumn('first_party', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('oauth_authorization_codes')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('client_id', 'varchar(64)', (col) => col.notNull().references('oauth_clients.client_id'))
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('redirect_uri', 'varchar(2048)', (col) => col.notNull())
    .addColumn('scope', 'varchar(200)', (col) => col.notNull())
    .addColumn('code_challenge', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema.createIndex('oauth_authorization_codes_expires').on('oauth_authorization_codes').column('expires_at').execute()

  await db.schema
    .createTable('oauth_device_codes')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_code_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('secret_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('client_id', 'varchar(64)', (col) => col.notNull().references('oauth_clients.client_id'))
    .addColumn('scope', 'varchar(200)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('user_id', 'bigint', (col) => col.references('users.id'))
    .addColumn('interval_seconds', 'integer', (col) => col.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('decided_at', 'bigint')
    .execute()
  await db.schema.createIndex('oauth_device_codes_expires').on('oauth_device_codes').column('expires_at').execute()

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('family_id', 'bigint', (col) => col.notNull())
    .addColumn('client_id', 'varchar(64)', (col) => col.notNull().references('oauth_clients.client_id'))
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('scope', 'varchar(200)', (col) => col.notNull())
    .addColumn('token_version', 'integer', (col) => col.notNull())
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute()
  await db.schema.createIndex('oauth_refresh_tokens_family').on('oauth_refresh_tokens').column('family_id').execute()
  await db.schema.createIndex('oauth_refresh_tokens_client').on('oauth_refresh_tokens').column('client_id').execute()
}
