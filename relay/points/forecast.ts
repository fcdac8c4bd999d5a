/**
 * When the points run out at the recent pace, and what the next refill brings (the dashboard and
 * the status line's `GET /api/v1/usage`). The pace is what the account consumed in the last hour,
 * a team's pool counting every member; hourly refills slow the fall. Read from one index range
 * (the account's last hour of ledger rows), so a long history costs nothing here.
 */
import { sql } from 'kysely'
import type { PointsForecast } from '../contract/accounts.ts'
import type { Database } from '../db/open-database.ts'
import { isInForce, type Plan } from './plan.ts'
import { nextRefillAt } from './refill.ts'
import { hourMs } from '../contract/days.ts'

/** Points the next refill adds: the hour's points, as far as the limit leaves room (frozen points count against it). */
export function nextRefillPoints(account: { balance: number; frozen: number }, terms: { hour_points: number; points_limit: number }): number {
  return Math.min(terms.hour_points, Math.max(0, terms.points_limit - account.balance - account.frozen))
}

export async function pointsForecast(db: Database, plan: Plan, now: number): Promise<PointsForecast> {
  const { account, pkg, subscription } = plan
  if (!isInForce(subscription)) return { hourly_use: 0, runs_out_timestamp: null, next_refill_points: 0 }
  const row = await db
    .selectFrom('points_ledger')
    .select(sql<number | string | null>`-sum(change)`.as('used'))
    .where('account_id', '=', account.id)
    .where('type', '=', 'consumed')
    .where('create_timestamp', '>', now - hourMs)
    .executeTakeFirst()
  const hourlyUse = Math.max(0, Number(row?.used ?? 0))
  const next = nextRefillAt(account.last_refill_timestamp, subscription.end_timestamp)
  return {
    hourly_use: hourlyUse,
    runs_out_timestamp: runsOutAt({ balance: account.balance, hourlyUse, hourPoints: pkg.hour_points, end: subscription.end_timestamp, now }),
    next_refill_points: next === null ? 0 : nextRefillPoints(account, pkg),
  }
}

/**
 * The balance falls by the pace less the refill, per hour; null when it does not fall, or lasts
 * past the plan's end (which the plan's own end date already tells).
 */
export function runsOutAt({ balance, hourlyUse, hourPoints, end, now }: { balance: number; hourlyUse: number; hourPoints: number; end: number; now: number }): number | null {
  const fall = hourlyUse - hourPoints
  if (fall <= 0) return null
  const at = now + Math.floor((balance / fall) * hourMs)
  return at < end ? at : null
}
