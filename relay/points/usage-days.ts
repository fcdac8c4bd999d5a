/**
 * Per user and day (UTC+8, as the usage chart counts them): the points their `consumed` rows
 * took and how many lines of their points history show on that day. Kept by the ledger's own
 * writes (entries.ts, in the statement or transaction that appends the row), so the dashboard's
 * week, "used ever" and the history's total and deep pages read a handful of rows however many
 * calls a user made (docs/decisions/111-bounded-history-reads.md).
 */
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../db/open-database.ts'
import { dayMs, dayOffsetMs } from '../contract/days.ts'

/**
 * `dayOf` (contract/days.ts) in SQL. Literals, not parameters: PostgreSQL matches a GROUP BY
 * expression to the selected one textually.
 */
export function usageDayOf(at: Expression<number>): RawBuilder<number> {
  return sql<number>`(${at} + ${sql.lit(dayOffsetMs)}) / ${sql.lit(dayMs)}`
}

/**
 * Whether a ledger row opens a line of the points history (history.ts): a row of no hold, or
 * the `frozen` row that opens a call's hold (its other rows join that line). The line counts on
 * the day of its newest row, where the history shows it: the frozen row's day while the call
 * runs, its settlement's once settled (entries.ts, `moveCallLine`).
 */
export function startsHistoryLine(row: { type: string; holdId: string | null }): boolean {
  return row.holdId === null || row.type === 'frozen'
}

/**
 * The rows that stand for a line of the user's history at its place, save a running call's
 * (its `frozen` row alone): a row of no hold, a settled call's `unfrozen` row. A settlement's
 * rows share its time, so that row's time is its line's. Index `points_ledger_user_lines`
 * (migration 0044) holds exactly these rows; a query reads it only with this very predicate.
 */
export const linePlaceRow = sql<boolean>`(hold_id is null or type = 'unfrozen')`

/**
 * Recomputes every user's days from the ledger: once when the table is created, and after rows
 * were written in bulk past the ledger's functions (the benchmark's seeding).
 */
export async function rebuildUsageDays(db: Database | Kysely<unknown>): Promise<void> {
  await sql`delete from points_usage_days`.execute(db)
  const at = sql.ref<number>('create_timestamp')
  // A call's line on the day of its newest row; every other row of a user is a line of its own.
  await sql`
    insert into points_usage_days (user_id, day, consumed, lines)
    select user_id, day, sum(consumed), sum(lines) from (
      select user_id, ${usageDayOf(at)} as day, -change as consumed, 0 as lines
        from points_ledger where user_id is not null and type = 'consumed'
      union all
      select user_id, ${usageDayOf(at)}, 0, 1
        from points_ledger where user_id is not null and hold_id is null
      union all
      select user_id, ${usageDayOf(sql<number>`max(${at})`)}, 0, 1
        from points_ledger where user_id is not null and hold_id is not null group by user_id, hold_id
    ) counted
    group by user_id, day`.execute(db)
}
