import { PostgresAdapter, sql, type Kysely } from 'kysely'
import { linePlaceRow, rebuildUsageDays } from '../../points/usage-days.ts'

/**
 * Deep pages of the points history start at their own day (docs/decisions/111-bounded-history-reads.md):
 * - a user's day counts each line of their history where the history shows it, at its newest
 *   row: a call settled on a later day than its `frozen` row now moves its line to the
 *   settlement's day. SQLite's settlement does so in points/entries.ts (`moveCallLine`);
 *   PostgreSQL's in `relay_settle`, replaced here by 0036's with that step added after the
 *   `unfrozen` row (same arguments: relays of the previous version call it as before). Its
 *   `frozen` row was written at or after the hold's `create_timestamp`, so a hold taken on the
 *   settlement's day needs no look at it;
 * - `points_ledger_user_lines`: per user and time, the rows that stand for a line
 *   (points/usage-days.ts, `linePlaceRow`), counted through within one day to find a page's place;
 * - the days are counted again from the ledger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('points_ledger_user_lines').on('points_ledger').columns(['user_id', 'create_timestamp']).where(linePlaceRow).execute()
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create or replace function relay_settle(p_holds bigint[], p_actuals integer[], p_entries bigint[], p_now bigint)
      returns table (hold_id bigint, charged integer, balance integer)
      language plpgsql as $$
      #variable_conflict use_column
      declare
        v_hold points_holds%rowtype;
        v_account points_accounts%rowtype;
        v_charged integer;
        v_left integer;
        v_opened integer;
        v_settled integer;
        i integer;
      begin
        -- As the freeze's: where chosen, the commit does not wait for the disk (docs/decisions/108-money-rules-on-postgres.md).
        if current_setting('relay.async_commit', true) = 'on' then
          perform set_config('synchronous_commit', 'off', true);
        end if;
        for i in 1 .. coalesce(array_length(p_holds, 1), 0) loop
          update points_holds h set settled_timestamp = p_now where h.id = p_holds[i] and h.settled_timestamp is null returning * into v_hold;
          if not found then
            raise exception 'hold % is not open', p_holds[i] using errcode = 'RL409', detail = p_holds[i]::text;
          end if;
          -- The whole reservation back…
          update points_accounts a
            set balance = a.balance + v_hold.amount, frozen = a.frozen - v_hold.amount, entries = a.entries + 1,
              last_entry_timestamp = greatest(a.last_entry_timestamp, p_now)
            where a.id = v_hold.account_id and a.frozen >= v_hold.amount
            returning * into v_account;
          if not found then raise exception 'frozen points short of hold %', v_hold.id; end if;
          insert into points_ledger (id, account_id, user_id, type, change, balance_after, model, reason, hold_id, create_timestamp, seq)
            values (p_entries[3 * i - 2], v_account.id, v_hold.user_id, 'unfrozen', v_hold.amount, v_account.balance, v_hold.model, null, v_hold.id, v_account.last_entry_timestamp, v_account.entries);
          -- The call's line goes to the settlement's day when its frozen row counted it on an earlier one.
          v_settled := ((v_account.last_entry_timestamp + 28800000) / 86400000)::integer;
          if ((v_hold.create_timestamp + 28800000) / 86400000)::integer <> v_settled then
            select ((l.create_timestamp + 28800000) / 86400000)::integer into v_opened
              from points_ledger l where l.hold_id = v_hold.id and l.type = 'frozen';
            if v_opened <> v_settled then
              update points_usage_days d set lines = d.lines - 1 where d.user_id = v_hold.user_id and d.day = v_opened;
              insert into points_usage_days as d (user_id, day, consumed, lines) values (v_hold.user_id, v_settled, 0, 1)
                on conflict (user_id, day) do update set lines = d.lines + 1;
            end if;
          end if;
          -- …then what the call cost, up to what the balance holds.
          v_charged := least(p_actuals[i], v_account.balance);
          if v_charged > 0 then
            update points_accounts a
              set balance = a.balance - v_charged, consumed = a.consumed + v_charged, entries = a.entries + 1,
                last_entry_timestamp = greatest(a.last_entry_timestamp, p_now)
              where a.id = v_account.id
              returning * into v_account;
            insert into points_ledger (id, account_id, user_id, type, change, balance_after, model, reason, hold_id, create_timestamp, seq)
              values (p_entries[3 * i - 1], v_account.id, v_hold.user_id, 'consumed', -v_charged, v_account.balance, v_hold.model, null, v_hold.id, v_account.last_entry_timestamp, v_account.entries);
            insert into points_usage_days as d (user_id, day, consumed, lines) values (v_hold.user_id, ((v_account.last_entry_timestamp + 28800000) / 86400000)::integer, v_charged, 0)
              on conflict (user_id, day) do update set consumed = d.consumed + excluded.consumed;
          end if;
          -- A subscription that ended while the call ran: what is left expires with it.
          if v_account.balance > 0 and not exists (
            select 1 from subscriptions s
              where (s.id = v_account.subscription_id or (v_account.subscription_id is null and s.team_id = v_account.team_id)) and s.status = 'normal'
          ) then
            v_left := v_account.balance;
            update points_accounts a
              set balance = 0, entries = a.entries + 1, last_entry_timestamp = greatest(a.last_entry_timestamp, p_now)
              where a.id = v_account.id
              returning * into v_account;
            insert into points_ledger (id, account_id, user_id, type, change, balance_after, model, reason, hold_id, create_timestamp, seq)
              values (p_entries[3 * i], v_account.id, v_hold.user_id, 'expired', -v_left, 0, v_hold.model, null, null, v_account.last_entry_timestamp, v_account.entries);
            insert into points_usage_days as d (user_id, day, consumed, lines) values (v_hold.user_id, ((v_account.last_entry_timestamp + 28800000) / 86400000)::integer, 0, 1)
              on conflict (user_id, day) do update set lines = d.lines + 1;
          end if;
          return query select v_hold.id, v_charged, v_account.balance;
        end loop;
      end
      $$`.execute(db)
  }
  await rebuildUsageDays(db)
}
