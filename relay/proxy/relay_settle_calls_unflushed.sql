-- relay_settle_calls_unflushed: relay_settle_calls whose commit does not wait for the WAL to
-- reach the disk, so the accounts' row locks are released at once; relay/proxy/settlements.ts
-- then makes the group durable with a statement of its own before it calls the group written
-- (docs/decisions/074-settlements-and-holds.md). Applied by relay/db/functions.ts when this text changes.

create or replace function relay_settle_calls_unflushed(p_holds bigint[], p_actuals integer[], p_entries bigint[], p_now bigint, p_calls jsonb, p_day integer, p_hour integer)
returns void
language plpgsql as $$
begin
  -- This transaction's alone (the statement runs outside any): its commit, after the call below.
  perform set_config('synchronous_commit', 'off', true);
  perform relay_settle_calls(p_holds, p_actuals, p_entries, p_now, p_calls, p_day, p_hour);
end
$$
