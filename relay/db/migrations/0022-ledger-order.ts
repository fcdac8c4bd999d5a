import { sql, type Kysely } from 'kysely'

/**
 * The ledger in commit order (docs/decisions/020-points-ledger.md). Each account counts its rows (`entries`) and
 * keeps the time of its newest (`last_entry_timestamp`) in the UPDATE that changes its balance,
 * under the account's row lock; each row takes the next number (`seq`) and a time no earlier
 * than the row before it. Ids, minted by several relays in one millisecond, sort by worker number,
 * not by commit. Existing rows are numbered in id order, as they were read until now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('points_accounts').addColumn('entries', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('points_accounts').addColumn('last_entry_timestamp', 'bigint', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('points_ledger').addColumn('seq', 'integer').execute()
  await sql`
    update points_ledger set seq = numbered.n
    from (select id, row_number() over (partition by account_id order by id) as n from points_ledger) as numbered
    where points_ledger.id = numbered.id`.execute(db)
  await sql`
    update points_accounts set
      entries = (select count(*) from points_ledger where points_ledger.account_id = points_accounts.id),
      last_entry_timestamp = coalesce((select max(create_timestamp) from points_ledger where points_ledger.account_id = points_accounts.id), 0)`.execute(db)
  await db.schema.createIndex('points_ledger_account_seq').on('points_ledger').columns(['account_id', 'seq']).unique().execute()
}
