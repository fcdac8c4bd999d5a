import type { Kysely } from 'kysely'

/**
 * Sessions that end (docs/decisions/003-sessions.md): every refresh token carries the absolute end of its
 * session, which no rotation extends (`SESSION_LIFETIME_DAYS`); rows from before this migration
 * have none and get one at their next rotation. Failed password attempts per account, for the
 * progressive delay that slows guessing from many addresses (relay/auth/login-throttle.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('session_expires_at', 'bigint').execute()
  await db.schema.alterTable('oauth_refresh_tokens').addColumn('session_expires_at', 'bigint').execute()
  await db.schema
    .createTable('login_failures')
    .addColumn('user_id', 'bigint', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull())
    // When the last attempt was let through: the next waits from here.
    .addColumn('attempt_at', 'bigint', (col) => col.notNull())
    .execute()
}
