-- relay_freeze: a relayed call's freeze in one statement, PostgreSQL's twin of `freeze` in
-- relay/points/ledger.ts (SQLite runs that TypeScript; so does PostgreSQL whenever this returns
-- no row). Applied by relay/db/functions.ts when this text changes; names in double braces are
-- constants it substitutes. Change a rule here and in the TypeScript together
-- (docs/money.md); relay/points/money-rules.test.ts holds the two to one result.
--
-- It first confirms the API key the relay took from its cache (`p_key`; null: the caller was
-- just read from the database, or is an OAuth token): a key deleted, disabled or past its expiry,
-- or its user no longer active, freezes nothing and returns one row naming the refusal, as
-- relay/keys/service.ts refuses (docs/decisions/108-money-rules-on-postgres.md). Then it freezes only when nothing else is
-- due: a plan in force, no hourly refill owed, the balance enough (or the whole balance when it
-- lies between `p_at_least` and `p_amount`). Otherwise no row: the caller takes the ledger's full
-- path, which applies refills and expiry, or refuses (docs/decisions/108-money-rules-on-postgres.md). It locks the account
-- row alone, for the length of the statement; its commit never waits for the disk: a provisional
-- hold, made durable by the next synchronous commit (docs/decisions/074-settlements-and-holds.md). The frozen row opens the
-- call's line of the user's history on its day (relay/points/usage-days.ts).

create or replace function relay_freeze(p_user bigint, p_key bigint, p_amount integer, p_at_least integer, p_model varchar, p_hold bigint, p_entry bigint, p_now bigint, p_owner varchar)
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
    or least(p_now, v_subscription.end_timestamp) - v_account.last_refill_timestamp >= {{hourMs}} then
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
  insert into points_usage_days as d (user_id, day, consumed, lines) values (p_user, ((v_account.last_entry_timestamp + {{dayOffsetMs}}) / {{dayMs}})::integer, 0, 1)
    on conflict (user_id, day) do update set lines = d.lines + 1;
  return query select v_account.id, v_amount, v_account.balance, null::varchar;
end
$$
