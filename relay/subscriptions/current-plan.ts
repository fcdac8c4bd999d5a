import type { ContentLanguage } from '../contract/languages.ts'
import type { CurrentPlan } from '../contract/subscriptions.ts'
import { remainingDays, type Plan } from '../points/plan.ts'
import { toPackageInfo } from './packages.ts'

/** The plan in force as the replace warning and the team comparison show it. */
export function currentPlanOf(plan: Plan, now: number, lang: ContentLanguage): CurrentPlan {
  return {
    subscription_id: plan.subscription.id,
    package: toPackageInfo(plan.pkg, lang),
    team_id: plan.team?.id ?? null,
    team_name: plan.team?.name ?? null,
    remaining_points: plan.account.balance,
    end_timestamp: plan.subscription.end_timestamp,
    remaining_days: remainingDays(plan.subscription, now),
  }
}
