-- relay_settle_calls: a settlement group in one statement, PostgreSQL's twin of the settlement
-- transaction in relay/proxy/settlements.ts (`settleAll`, `recordCalls` in relay/proxy/call-log.ts,
-- `endLeasedCalls` in relay/keys/limits.ts). Applied by relay/db/functions.ts when this text
-- changes. Change a rule here and in the TypeScript together (docs/money.md);
-- relay/points/money-rules.test.ts holds the two to one result.
--
-- It settles the holds with relay_settle (its rules, its errors), then records the calls, given
-- as `proxy_calls` rows in JSON with three more members: `hold` (the call's hold, an index into
-- `p_holds`; absent when it took none), `actual` (what its usage cost) and `lease_id`. A call's
-- `points` and `shortfall_points` come from its hold's settlement, as `settleCharges` computes
-- them (relay/proxy/metering.ts). Then the calls' leases end, and the points charged are added to
-- their keys' counters and to capped members', rows in id order against deadlocks
-- (docs/decisions/108-money-rules-on-postgres.md). `p_day` and `p_hour` are the relay's day and hour of `p_now`.

create or replace function relay_settle_calls(p_holds bigint[], p_actuals integer[], p_entries bigint[], p_now bigint, p_calls jsonb, p_day integer, p_hour integer)
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
$$
