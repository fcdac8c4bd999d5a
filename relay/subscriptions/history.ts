/**
 * What the caller's subscriptions were: the history call (one row per event) and the
 * `subscriptions` list of user info (one row per subscription).
 */
import { sql } from 'kysely'
import type { Subscription } from '../contract/accounts.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { pageOffset, type PageQuery } from '../contract/paging.ts'
import type { SubscriptionHistory } from '../contract/subscriptions.ts'
import type { Database } from '../db/open-database.ts'
import { currentPlan } from '../points/catch-up.ts'
import { isInForce, remainingDays } from '../points/plan.ts'
import { usedByAccounts, usedByMembers } from '../points/usage.ts'

/** User info lists this many of the newest subscriptions; the history call pages through all events. */
export const userInfoSubscriptions = 20

/** Package names in `lang`. */
export async function subscriptionHistory(db: Database, userId: string, page: PageQuery, now: number, lang: ContentLanguage): Promise<SubscriptionHistory> {
  // Catching up first writes any expiry that is due, so the history is complete.
  const plan = await currentPlan(db, userId, now)
  const inForceId = plan && isInForce(plan.subscription) ? plan.subscription.id : null
  const events = db.selectFrom('subscription_events').where('subscription_events.user_id', '=', userId)
  const [rows, count] = await Promise.all([
    events
      .innerJoin('subscriptions', 'subscriptions.id', 'subscription_events.subscription_id')
      .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
      .leftJoin('teams', 'teams.id', 'subscriptions.team_id')
      .select([
        'subscription_events.id',
        'subscription_events.action',
        'subscription_events.subscription_id',
        'subscription_events.create_timestamp',
        `packages.name_${lang} as package_name` as const,
        'packages.code as package_code',
        'packages.kind as package_kind',
        'teams.name as team_name',
        'subscriptions.start_timestamp',
        'subscriptions.end_timestamp',
      ])
      .orderBy('subscription_events.id', 'desc')
      .limit(page.pageSize)
      .offset(pageOffset(page))
      .execute(),
    events.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return {
    items: rows.map((row) => ({ ...row, current: row.subscription_id === inForceId })),
    total: Number(count.total),
    page: page.page,
    pageSize: page.pageSize,
  }
}

/** The user's personal subscriptions and, for a member, their team's: the one in force first, then newest first. */
export async function loadSubscriptions(db: Database, userId: string, now: number, lang: ContentLanguage): Promise<Subscription[]> {
  const plan = await currentPlan(db, userId, now)
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
    .innerJoin('points_accounts', (join) =>
      join.on((eb) =>
        eb.or([
          eb('points_accounts.subscription_id', '=', eb.ref('subscriptions.id')),
          eb('points_accounts.team_id', '=', eb.ref('subscriptions.team_id')),
        ]),
      ),
    )
    .leftJoin('teams', 'teams.id', 'subscriptions.team_id')
    .select([
      'subscriptions.id',
      'subscriptions.package_id',
      'subscriptions.team_id',
      'subscriptions.status',
      'subscriptions.start_timestamp',
      'subscriptions.end_timestamp',
      `packages.name_${lang} as package_name` as const,
      'packages.code as package_code',
      'packages.kind as package_kind',
      'packages.points_limit',
      'packages.hour_points',
      'packages.validity_days',
      `packages.description_${lang} as description` as const,
      'teams.name as team_name',
      'points_accounts.id as account_id',
      'points_accounts.balance',
    ])
    .where((eb) =>
      eb.or([
        eb('subscriptions.user_id', '=', userId),
        ...(plan?.team ? [eb('subscriptions.team_id', '=', plan.team.id)] : []),
      ]),
    )
    .orderBy(sql`case when subscriptions.status = 'normal' then 0 else 1 end`)
    .orderBy('subscriptions.id', 'desc')
    .limit(userInfoSubscriptions)
    .execute()
  const [personalUse, teamUse] = await Promise.all([
    usedByAccounts(db, rows.filter((r) => r.team_id === null).map((r) => r.account_id)),
    plan?.team ? usedByMembers(db, plan) : new Map<string, number>(),
  ])
  return rows.map(({ account_id, balance, ...row }) => ({
    ...row,
    total_points: row.points_limit,
    remaining_points: isInForce(row) ? balance : 0,
    used_points: row.team_id === null ? (personalUse.get(account_id) ?? 0) : (teamUse.get(userId) ?? 0),
    remaining_days: remainingDays(row, now),
  }))
}
