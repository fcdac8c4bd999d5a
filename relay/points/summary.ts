/** The caller's points as GET /api/user/points and the user-info block show them. */
import type { PointsBlock } from '../contract/accounts.ts'
import { defaultContentLanguage, type ContentLanguage } from '../contract/languages.ts'
import type { PointsSummary } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import { toPackageInfo } from '../subscriptions/packages.ts'
import { currentPlan } from './catch-up.ts'
import { isInForce, remainingDays } from './plan.ts'
import { nextRefillAt } from './refill.ts'
import { pointsForecast } from './forecast.ts'
import { usedEver, usedInPlan } from './usage.ts'

/** docs/product.md, Constants defaults, shown while the user holds no package. */
const noPackage = { hour_points: 100, validity_days: 30 } as const

/**
 * The package's texts in `lang` (callers that read only numbers leave it out). `used: false`
 * leaves `used_points` at 0 for callers that do not show it (the status line): a team member's
 * share is a sum over their rows in the pool (docs/decisions/111-bounded-history-reads.md).
 */
export async function pointsSummary(
  db: Database,
  userId: string,
  now: number,
  lang: ContentLanguage = defaultContentLanguage,
  { used = true }: { used?: boolean } = {},
): Promise<PointsSummary> {
  const plan = await currentPlan(db, userId, now)
  if (!plan) {
    return {
      balance: 0,
      points_limit: 0,
      used_points: 0,
      frozen_points: 0,
      hour_points: noPackage.hour_points,
      last_refill_timestamp: null,
      next_refill_timestamp: null,
      status: 'none',
      start_timestamp: null,
      end_timestamp: null,
      remaining_days: 0,
      package: null,
      team_id: null,
      forecast: { hourly_use: 0, runs_out_timestamp: null, next_refill_points: 0 },
    }
  }
  const { pkg, subscription, account } = plan
  const inForce = isInForce(subscription)
  const [usedPoints, forecast] = await Promise.all([used ? usedInPlan(db, plan, userId) : 0, pointsForecast(db, plan, now)])
  return {
    balance: account.balance,
    points_limit: pkg.points_limit,
    used_points: usedPoints,
    frozen_points: account.frozen,
    hour_points: pkg.hour_points,
    last_refill_timestamp: inForce ? account.last_refill_timestamp : null,
    next_refill_timestamp: inForce ? nextRefillAt(account.last_refill_timestamp, subscription.end_timestamp) : null,
    status: subscription.status,
    start_timestamp: subscription.start_timestamp,
    end_timestamp: subscription.end_timestamp,
    remaining_days: remainingDays(subscription, now),
    package: toPackageInfo(pkg, lang),
    team_id: plan.team?.id ?? null,
    forecast,
  }
}

/** The user-info block (docs/architecture.md §6): the same numbers under the names docs/product.md gives them. */
export async function pointsBlock(db: Database, userId: string, now: number, lang: ContentLanguage): Promise<PointsBlock> {
  const [summary, totalUsed] = await Promise.all([pointsSummary(db, userId, now, lang), usedEver(db, userId)])
  const pkg = summary.package
  return {
    total_points: summary.points_limit,
    remaining_points: summary.balance,
    used_points: summary.used_points,
    total_used_points: totalUsed,
    hour_points: summary.hour_points,
    package_id: pkg?.id ?? null,
    status: summary.status,
    start_timestamp: summary.start_timestamp,
    end_timestamp: summary.end_timestamp,
    package_name: pkg?.name ?? null,
    package_code: pkg?.code ?? null,
    validity_days: pkg?.validity_days ?? noPackage.validity_days,
    description: pkg?.description ?? null,
    points_limit: summary.points_limit,
    frozen_points: summary.frozen_points,
    last_refill_timestamp: summary.last_refill_timestamp,
    next_refill_timestamp: summary.next_refill_timestamp,
    remaining_days: summary.remaining_days,
    package_kind: pkg?.kind ?? null,
    team_id: summary.team_id,
    forecast: summary.forecast,
  }
}
