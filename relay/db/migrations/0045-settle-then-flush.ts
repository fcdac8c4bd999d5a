import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * PostgreSQL only: a settlement group that frees the accounts it locked before the disk is
 * reached (docs/decisions/074-settlements-and-holds.md).
 *
 * `relay_settle_calls_unflushed` is `relay_settle_calls` (migration 0042) whose commit does not
 * wait for the WAL to reach the disk: the accounts' row locks, taken by the settlement, are
 * released at once, where they were held through the fsync and every freeze of those users waited
 * behind it. The relay then makes the group durable with a statement of its own
 * (proxy/settlements.ts), as before it calls the group written. A new function beside the old
 * one: relays of the previous version keep calling `relay_settle_calls`, which is unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  await sql`
    create function relay_settle_calls_unflushed(p_holds bigint[], p_actuals integer[], p_entries bigint[], p_now bigint, p_calls jsonb, p_day integer, p_hour integer)
    returns void
    language plpgsql as $$
    begin
      -- This transaction's alone (the statement runs outside any): its commit, after the call below.
      perform set_config('synchronous_commit', 'off', true);
      perform relay_settle_calls(p_holds, p_actuals, p_entries, p_now, p_calls, p_day, p_hour);
    end
    $$`.execute(db)
}
