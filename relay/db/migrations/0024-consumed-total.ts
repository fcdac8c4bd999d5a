import { sql, type Kysely } from 'kysely'

/**
 * Each account keeps the net of its `consumed` rows (`consumed`), updated in the UPDATE that
 * changes its balance: what a status line and the points screens show as used is then one row,
 * not a sum over every call the account ever made (docs/decisions/020-points-ledger.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('points_accounts').addColumn('consumed', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await sql`
    update points_accounts set consumed = coalesce(
      (select -sum(change) from points_ledger where points_ledger.account_id = points_accounts.id and points_ledger.type = 'consumed'),
      0
    )`.execute(db)
}
