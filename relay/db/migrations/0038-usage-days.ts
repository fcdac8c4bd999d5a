import { sql, type Kysely } from 'kysely'
import { rebuildUsageDays } from '../../points/usage-days.ts'

/**
 * Reads that stay bounded however long a user's history (docs/decisions/111-bounded-history-reads.md):
 * - `points_usage_days`: per user and UTC+8 day, points consumed and points-history lines, kept
 *   by the ledger's writes; filled here from the ledger once;
 * - `points_ledger_hold`: a call's ledger rows by its hold (the history's lines, a call's detail);
 * - `points_ledger_pool`: a team pool's own rows (refills, expiry), which every member's history
 *   shows, without walking the members' calls in the same account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('points_usage_days')
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    .addColumn('day', 'integer', (col) => col.notNull())
    .addColumn('consumed', 'integer', (col) => col.notNull())
    .addColumn('lines', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('points_usage_days_pk', ['user_id', 'day'])
    .execute()
  await db.schema.createIndex('points_ledger_hold').on('points_ledger').column('hold_id').execute()
  await db.schema
    .createIndex('points_ledger_pool')
    .on('points_ledger')
    .columns(['account_id', 'create_timestamp'])
    .where(sql.ref('user_id'), 'is', null)
    .execute()
  await rebuildUsageDays(db)
}
