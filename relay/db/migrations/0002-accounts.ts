import { sql, type Kysely } from 'kysely'

/** Users, their e-mail codes and refresh tokens (relay/auth, relay/users). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('username', 'varchar(32)', (col) => col.notNull())
    .addColumn('email', 'varchar(254)', (col) => col.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
    .addColumn('user_type', 'varchar(16)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('invite_code', 'varchar(32)', (col) => col.notNull().unique())
    .addColumn('invited_by', 'bigint', (col) => col.references('users.id'))
    .addColumn('remark', 'varchar(255)')
    .addColumn('name', 'varchar(64)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('company', 'varchar(128)')
    .addColumn('avatar', 'varchar(512)')
    .addColumn('token_version', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('last_login_timestamp', 'bigint')
    .execute()
  // Usernames are unique regardless of case, so "Alice" cannot be registered beside "alice".
  await db.schema.createIndex('users_username_lower').unique().on('users').expression(sql`lower(username)`).execute()
  await db.schema.createIndex('users_invited_by').on('users').column('invited_by').execute()

  await db.schema
    .createTable('email_codes')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('purpose', 'varchar(16)', (col) => col.notNull())
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute()
  await db.schema.createIndex('email_codes_email_purpose').on('email_codes').columns(['email', 'purpose']).execute()

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('family_id', 'bigint', (col) => col.notNull())
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute()
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute()
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute()
}
