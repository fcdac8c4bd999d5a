import type { Kysely } from 'kysely'

/**
 * An account's ledger rows by time: the pace a forecast reads (points/forecast.ts) is one range
 * of this index, the last hour of one account, however long its history. The existing
 * (account_id, id) index cannot serve it: ids follow the wall clock, rows' times the domain clock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('points_ledger_account_time').on('points_ledger').columns(['account_id', 'create_timestamp']).execute()
}
