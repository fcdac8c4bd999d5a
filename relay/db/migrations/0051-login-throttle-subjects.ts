import type { Kysely } from 'kysely'

/**
 * The per-account sign-in delay (relay/auth/login-throttle.ts) counts failures per login subject
 * — an account, or a name no account has — so an unknown name is slowed exactly like a known one
 * and the 429 does not tell which exist. The counts in flight are dropped: at worst an attacker
 * gets five free guesses again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_failures').execute()
  await db.schema
    .createTable('login_failures')
    // `user:<id>` for an account, `name:<login>` for a username or e-mail no account has.
    .addColumn('subject', 'varchar(400)', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull())
    // When the last attempt was let through: the next waits from here.
    .addColumn('attempt_at', 'bigint', (col) => col.notNull())
    .execute()
}
