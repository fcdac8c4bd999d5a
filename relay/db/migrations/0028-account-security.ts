import type { Kysely } from 'kysely'

/**
 * Account security (docs/decisions/099-sign-in.md, decisions/071-secrets-sealed-with-jwt-secret.md):
 * - `two_factor`: one row per user who began enrolling in two-factor sign-in; `secret` is the
 *   TOTP key sealed with a key derived from JWT_SECRET (relay/auth/totp.ts), `enabled_at` null
 *   until a first code confirmed it, `last_step` the newest 30-second step a code was accepted
 *   for, so no code works twice.
 * - `recovery_codes`: ten single-use codes per enrolment, as SHA-256 digests.
 * - `user_sessions`: what a sign-in's session (a refresh-token family, docs/decisions/003-sessions.md) was
 *   started from and when it was last seen, for the security page.
 * - `sign_in_events`: each sign-in attempt at an account, successful or not; the newest 50 per
 *   user are kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'bigint', (col) => col.primaryKey())
    .addColumn('secret', 'varchar(256)', (col) => col.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('last_step', 'bigint')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').columns(['user_id', 'code_hash']).execute()

  await db.schema
    .createTable('user_sessions')
    // The refresh-token family id of the sign-in.
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    .addColumn('client_ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('user_agent', 'varchar(256)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('last_seen_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute()

  await db.schema
    .createTable('sign_in_events')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    .addColumn('client_ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('user_agent', 'varchar(256)', (col) => col.notNull())
    // `success`, or which step failed: `password`, `two_factor`.
    .addColumn('outcome', 'varchar(16)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('sign_in_events_user').on('sign_in_events').columns(['user_id', 'id']).execute()
}
