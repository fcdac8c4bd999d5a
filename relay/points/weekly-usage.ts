/**
 * GET /api/user/points/weekly-usage: points the caller consumed per calendar day in UTC+8, the
 * last `usageWindowDays` days, today included (docs/decisions/021-days-and-times.md). China has no daylight
 * saving, so a fixed offset is exact.
 */
import { dayMs, dayOf, dayTimeZone } from '../contract/days.ts'
import { usageWindowDays, type WeeklyUsage } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'

/** Reads the user's days (usage-days.ts): at most `usageWindowDays` rows, however many calls they made. */
export async function weeklyUsage(db: Database, userId: string, now: number): Promise<WeeklyUsage> {
  const firstDay = dayOf(now) - (usageWindowDays - 1)
  const rows = await db
    .selectFrom('points_usage_days')
    .select(['day', 'consumed'])
    .where('user_id', '=', userId)
    .where('day', '>=', firstDay)
    .execute()
  const byDay = new Map(rows.map((r) => [Number(r.day), Number(r.consumed)]))
  return {
    timezone: dayTimeZone,
    days: Array.from({ length: usageWindowDays }, (_, i) => ({
      date: new Date((firstDay + i) * dayMs).toISOString().slice(0, 10),
      consumed_points: byDay.get(firstDay + i) ?? 0,
    })),
  }
}
