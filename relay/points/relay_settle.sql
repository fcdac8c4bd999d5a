-- relay_settle: a group's holds settled in one statement, PostgreSQL's twin of `settleAll` /
-- `settleOne` in relay/points/ledger.ts and `moveCallLine` in relay/points/entries.ts. Applied
-- by relay/db/functions.ts when this text changes; names in double braces are
-- constants it substitutes. Change a rule here and in the TypeScript together (docs/money.md);
-- relay/points/money-rules.test.ts holds the two to one result.
--
-- Holds are settled in the order given (callers sort by account, against deadlocks), one row
-- each: the whole reservation back (`unfrozen`), then what the call cost up to the balance
-- (`consumed`), then, if the subscription ended while the call ran, the rest `expired`. The call's
-- history line moves to the settlement's day when its frozen row counted it on an earlier one
-- (docs/decisions/111-bounded-history-reads.md). A hold settled already or never taken fails the whole statement, nothing
-- of it written, with SQLSTATE {{holdNotOpen}} and the hold's id as the error's detail. With
-- `relay.async_commit` on for the connection (DATABASE_ASYNC_COMMIT), the commit does not wait
-- for the disk (docs/decisions/108-money-rules-on-postgres.md, decisions/074-settlements-and-holds.md).

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
    update points_holds h set settled_timestamp = p_now, answered = null where h.id = p_holds[i] and h.settled_timestamp is null returning * into v_hold;
    if not found then
      raise exception 'hold % is not open', p_holds[i] using errcode = '{{holdNotOpen}}', detail = p_holds[i]::text;
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
    v_settled := ((v_account.last_entry_timestamp + {{dayOffsetMs}}) / {{dayMs}})::integer;
    if ((v_hold.create_timestamp + {{dayOffsetMs}}) / {{dayMs}})::integer <> v_settled then
      select ((l.create_timestamp + {{dayOffsetMs}}) / {{dayMs}})::integer into v_opened
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
      insert into points_usage_days as d (user_id, day, consumed, lines) values (v_hold.user_id, ((v_account.last_entry_timestamp + {{dayOffsetMs}}) / {{dayMs}})::integer, v_charged, 0)
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
      insert into points_usage_days as d (user_id, day, consumed, lines) values (v_hold.user_id, ((v_account.last_entry_timestamp + {{dayOffsetMs}}) / {{dayMs}})::integer, 0, 1)
        on conflict (user_id, day) do update set lines = d.lines + 1;
    end if;
    return query select v_hold.id, v_charged, v_account.balance;
  end loop;
end
$$
