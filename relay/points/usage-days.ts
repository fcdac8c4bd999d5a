/**
 * Per user and day (UTC+8, as the usage chart counts them): the points their `consumed` rows
 * took and how many lines their points history gained. Kept by the ledger's own writes
 * (entries.ts, in the statement or transaction that appends the row), so the dashboard's week,
 * "used ever" and the history's total read a handful of rows however many calls a user made
 * (docs/decisions/139).
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/open-database.ts'
import { dayMs, hourMs } from './plan.ts'

/** Days are counted in UTC+8 (docs/decisions/021); China has no daylight saving. */
export const usageDayOffsetMs = 8 * hourMs

/** The UTC+8 day number (days since the epoch) of an instant. */
export function usageDay(ms: number): number {
  return Math.floor((ms + usageDayOffsetMs) / dayMs)
}

/**
 * Whether a ledger row starts a line of the points history (history.ts): a row of no hold, or
 * the `frozen` row that opens a call's hold (its other rows join that line).
 */
export function startsHistoryLine(row: { type: string; holdId: string | null }): boolean {
  return row.holdId === null || row.type === 'frozen'
}

/**
 * Recomputes every user's days from the ledger: once when the table is created, and after rows
 * were written in bulk past the ledger's functions (the benchmark's seeding).
 */
export async function rebuildUsageDays(db: Database | Kysely<unknown>): Promise<void> {
  await sql`delete from points_usage_days`.execute(db)
  // Literals, not parameters: PostgreSQL matches the GROUP BY expression to the selected one textually.
  const day = sql`(create_timestamp + ${sql.lit(usageDayOffsetMs)}) / ${sql.lit(dayMs)}`
  await sql`
    insert into points_usage_days (user_id, day, consumed, lines)
    select user_id, ${day},
      sum(case when type = 'consumed' then -change else 0 end),
      sum(case when hold_id is null or type = 'frozen' then 1 else 0 end)
    from points_ledger where user_id is not null and (type in ('consumed', 'frozen') or hold_id is null)
    group by user_id, ${day}`.execute(db)
}
