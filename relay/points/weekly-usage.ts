/**
 * GET /api/user/points/weekly-usage: points the caller consumed per calendar day in UTC+8, the
 * last `usageWindowDays` days, today included (docs/decisions/021). China has no daylight
 * saving, so a fixed offset is exact.
 */
import { sql } from 'kysely'
import { usageTimezone, usageWindowDays, type WeeklyUsage } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import { dayMs, hourMs } from './plan.ts'

const offsetMs = 8 * hourMs

export async function weeklyUsage(db: Database, userId: string, now: number): Promise<WeeklyUsage> {
  const today = Math.floor((now + offsetMs) / dayMs)
  const firstDay = today - (usageWindowDays - 1)
  // Integer division of integers is integral on both databases. Literals, not parameters:
  // PostgreSQL matches the GROUP BY expression to the selected one textually.
  const day = sql<number>`(create_timestamp + ${sql.lit(offsetMs)}) / ${sql.lit(dayMs)}`
  const rows = await db
    .selectFrom('points_ledger')
    .select([day.as('day'), sql<number | string>`-sum(change)`.as('consumed')])
    .where('user_id', '=', userId)
    .where('type', '=', 'consumed')
    .where('create_timestamp', '>=', firstDay * dayMs - offsetMs)
    .groupBy(day)
    .execute()
  const byDay = new Map(rows.map((r) => [Number(r.day), Number(r.consumed)]))
  return {
    timezone: usageTimezone,
    days: Array.from({ length: usageWindowDays }, (_, i) => ({
      date: new Date((firstDay + i) * dayMs).toISOString().slice(0, 10),
      consumed_points: byDay.get(firstDay + i) ?? 0,
    })),
  }
}
