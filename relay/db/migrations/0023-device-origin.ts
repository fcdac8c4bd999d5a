import type { Kysely } from 'kysely'

/**
 * Where a device authorisation was started from (RFC 8628 §5.4): the approval screen shows the
 * address and time, so a person can tell a request they did not make.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_device_codes').addColumn('client_ip', 'varchar(64)').execute()
}
