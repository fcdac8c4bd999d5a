import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * PostgreSQL only: a relayed call's freeze, and a group's settlements, each one statement
 * (docs/decisions/108-money-rules-on-postgres.md). The rules are those of points/ledger.ts and points/entries.ts, which SQLite
 * keeps running as they are: every change is a guarded UPDATE of the account with its ledger row,
 * numbered and timed from that UPDATE (commit order, docs/decisions/020-points-ledger.md).
 *
 * `relay_freeze` freezes only when nothing else is due: a plan in force, no hourly refill owed,
 * the balance enough. Otherwise it returns no row and the caller takes the ledger's full path,
 * which applies refills and expiry, or refuses. It locks the account row alone, for the length of
 * the statement; a subscription that ended meanwhile is seen after that lock, as in catch-up.ts.
 * With `relay.async_commit` on for the connection (DATABASE_ASYNC_COMMIT), neither function's
 * transaction waits for the disk at its commit (synchronous_commit off for that transaction alone).
 *
 * Both keep the user's day rows (`points_usage_days`, migration 0038, points/usage-days.ts) as
 * appendEntry does: the frozen row opens a history line, a consumed row adds its points, an
 * expiry row is a line of its own. The table is made by a later migration; PL/pgSQL resolves it
 * when a function runs, and no call runs before every migration has.
 *
 * `relay_settle` settles holds in the order given (callers sort by account, against deadlocks),
 * one row per hold; a hold settled already or never taken fails the whole statement, nothing of
 * it written, with SQLSTATE RL409 and the hold's id as the error's detail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  await sql`
    create or replace function relay_freeze(p_user bigint, p_amount integer, p_at_least integer, p_model varchar, p_hold bigint, p_entry bigint, p_now bigint, p_owner varchar)
    returns table (account_id bigint, amount integer, balance integer)
    language plpgsql as $$
    #variable_conflict use_column
    declare
      v_team bigint;
      v_account points_accounts%rowtype;
      v_subscription subscriptions%rowtype;
      v_amount integer;
    begin
      select tm.team_id into v_team from team_members tm where tm.user_id = p_user;
      if v_team is null then
        select * into v_account from points_accounts a
          where a.subscription_id = (select s.id from subscriptions s where s.user_id = p_user order by s.id desc limit 1)
          for no key update;
      else
        select * into v_account from points_accounts a where a.team_id = v_team for no key update;
      end if;
      if not found then return; end if;
      if v_team is null then
        select * into v_subscription from subscriptions s where s.id = v_account.subscription_id;
      else
        select * into v_subscription from subscriptions s where s.team_id = v_team order by s.id desc limit 1;
      end if;
      if not found or v_subscription.status <> 'normal' or p_now >= v_subscription.end_timestamp
        or least(p_now, v_subscription.end_timestamp) - v_account.last_refill_timestamp >= 3600000 then
        return;
      end if;
      if v_account.balance >= p_amount then v_amount := p_amount;
      elsif v_account.balance >= p_at_least then v_amount := v_account.balance;
      else return;
      end if;
      -- Where the operator chose it, the call does not wait for the WAL to reach the disk
      -- (docs/decisions/108-money-rules-on-postgres.md): this freeze is made durable by the next synchronous commit.
      if current_setting('relay.async_commit', true) = 'on' then
        perform set_config('synchronous_commit', 'off', true);
      end if;
      update points_accounts a
        set balance = a.balance - v_amount, frozen = a.frozen + v_amount, entries = a.entries + 1,
          last_entry_timestamp = greatest(a.last_entry_timestamp, p_now)
        where a.id = v_account.id
        returning * into v_account;
      insert into points_holds (id, account_id, user_id, amount, model, create_timestamp, settled_timestamp, owner)
        values (p_hold, v_account.id, p_user, v_amount, p_model, p_now, null, p_owner);
      insert into points_ledger (id, account_id, user_id, type, change, balance_after, model, reason, hold_id, create_timestamp, seq)
        values (p_entry, v_account.id, p_user, 'frozen', -v_amount, v_account.balance, p_model, null, p_hold, v_account.last_entry_timestamp, v_account.entries);
      -- The frozen row opens the call's line of the user's history (points/usage-days.ts).
      insert into points_usage_days as d (user_id, day, consumed, lines) values (p_user, ((v_account.last_entry_timestamp + 28800000) / 86400000)::integer, 0, 1)
        on conflict (user_id, day) do update set lines = d.lines + 1;
      return query select v_account.id, v_amount, v_account.balance;
    end
    $$`.execute(db)
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
