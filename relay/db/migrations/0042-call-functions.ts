import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * PostgreSQL only: a relayed call's statements, fewer (docs/decisions/108-money-rules-on-postgres.md, decisions/074-settlements-and-holds.md).
 *
 * `relay_freeze` (migration 0036, docs/decisions/108-money-rules-on-postgres.md) gets a successor that
 * - confirms, first, the API key the relay took from its cache (`p_key`; null: the caller was
 *   just read from the database, or is an OAuth token): a key deleted, disabled or past its
 *   expiry, or its user no longer active, freezes nothing and returns one row naming the
 *   refusal (`unauthenticated`, `api_key_disabled`, `api_key_expired`, as keys/service.ts
 *   refuses), its other columns null;
 * - never waits for the disk at its commit: a freeze is a provisional hold, made durable by the
 *   next synchronous commit, its settlement's at the latest (docs/decisions/074-settlements-and-holds.md).
 * Otherwise the rules are 0036's, unchanged: no row when something else is due (the caller then
 * takes the ledger's full path). It is an overload (one more argument): 0036's is left in place.
 *
 * And `relay_settle_calls`: a settlement group (proxy/settlements.ts) in one statement, committed
 * on its own, where it was BEGIN, `relay_settle`, the calls' INSERT, the keys' counters and COMMIT
 * (docs/decisions/108-money-rules-on-postgres.md). It settles the holds with `relay_settle` (its rules, its RL409, its
 * asynchronous commit where chosen), then records the calls, given as `proxy_calls` rows in JSON
 * with three more members: `hold` (the call's hold, an index into `p_holds`; absent when it took
 * none), `actual` (what its usage cost) and `lease_id`. A call's `points` and `shortfall_points`
 * come from its hold's settlement, as `settleCharges` computes them (proxy/metering.ts). Then
 * what `endLeasedCalls` does (keys/limits.ts): the calls' leases end, and the points charged are
 * added to their keys' counters and to capped members', rows in id order against deadlocks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  // A new overload: 0036's stays for relays of the previous version still serving during an
  // upgrade (they keep working, with its commit rules); nothing of this version calls it.
  await sql`
    create function relay_freeze(p_user bigint, p_key bigint, p_amount integer, p_at_least integer, p_model varchar, p_hold bigint, p_entry bigint, p_now bigint, p_owner varchar)
    returns table (account_id bigint, amount integer, balance integer, refusal varchar)
    language plpgsql as $$
    #variable_conflict use_column
    declare
      v_team bigint;
      v_account points_accounts%rowtype;
      v_subscription subscriptions%rowtype;
      v_amount integer;
      v_refusal varchar;
    begin
      if p_key is not null then
        select case
            when k.disabled_timestamp is not null then 'api_key_disabled'
            when k.expires_timestamp is not null and k.expires_timestamp <= p_now then 'api_key_expired'
          end into v_refusal
          from api_keys k join users u on u.id = k.user_id
          where k.id = p_key and k.user_id = p_user and k.deleted_at is null and u.status = 'active';
        if not found then v_refusal := 'unauthenticated'; end if;
        if v_refusal is not null then
          return query select null::bigint, null::integer, null::integer, v_refusal;
          return;
        end if;
      end if;
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
      -- A provisional hold: its commit does not wait for the WAL to reach the disk
      -- (docs/decisions/074-settlements-and-holds.md). This transaction's alone: set_config(…, true) lasts until its commit.
      perform set_config('synchronous_commit', 'off', true);
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
      return query select v_account.id, v_amount, v_account.balance, null::varchar;
    end
    $$`.execute(db)
  await sql`
    create function relay_settle_calls(p_holds bigint[], p_actuals integer[], p_entries bigint[], p_now bigint, p_calls jsonb, p_day integer, p_hour integer)
    returns void
    language plpgsql as $$
    declare
      v_charged integer[];
      v_members bigint[];
      v_member_points integer[];
      v_id bigint;
      v_points bigint;
    begin
      select coalesce(array_agg(s.charged order by s.n), '{}') into v_charged
        from relay_settle(p_holds, p_actuals, p_entries, p_now) with ordinality as s(hold_id, charged, balance, n);
      insert into proxy_calls
        select (jsonb_populate_record(null::proxy_calls, c.call || jsonb_build_object(
            'points', coalesce(v_charged[(c.call->>'hold')::integer], 0),
            'shortfall_points', coalesce((c.call->>'actual')::integer - v_charged[(c.call->>'hold')::integer], 0)))).*
          from jsonb_array_elements(p_calls) as c(call);
      with ended as (
        delete from call_leases l using jsonb_array_elements(p_calls) as c(call)
          where l.id = (c.call->>'lease_id')::bigint
          returning l.member_id, coalesce(v_charged[(c.call->>'hold')::integer], 0) as points
      )
      select array_agg(e.member_id), array_agg(e.points) into v_members, v_member_points from ended e where e.member_id is not null;
      for v_id, v_points in
        select (c.call->>'key_id')::bigint, sum(coalesce(v_charged[(c.call->>'hold')::integer], 0))
          from jsonb_array_elements(p_calls) as c(call)
          where c.call->>'key_id' is not null
          group by 1 having sum(coalesce(v_charged[(c.call->>'hold')::integer], 0)) > 0 order by 1
      loop
        update api_keys k
          set points_used = k.points_used + v_points,
            day_points_used = case when k.points_day = p_day then k.day_points_used + v_points else v_points end,
            points_day = p_day
          where k.id = v_id;
      end loop;
      for v_id, v_points in
        select u.member_id, sum(u.points) from unnest(v_members, v_member_points) as u(member_id, points)
          group by 1 having sum(u.points) > 0 order by 1
      loop
        update team_members m
          set hour_points_used = case when m.points_hour = p_hour then m.hour_points_used + v_points else v_points end,
            points_hour = p_hour,
            day_points_used = case when m.points_day = p_day then m.day_points_used + v_points else v_points end,
            points_day = p_day
          where m.user_id = v_id;
      end loop;
    end
    $$`.execute(db)
}
