/**
 * A user's plan: the subscription that feeds their points (their own, or their team's) with its
 * package and points account. Read-only; catch-up.ts brings it up to date.
 */
import type { Selectable } from 'kysely'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import { dayMs } from '../contract/days.ts'
import type { PackagesTable, PointsAccountsTable, SubscriptionsTable, TeamsTable } from '../db/schema.ts'

export interface Plan {
  /** In force, or else the latest one that ended. */
  subscription: Selectable<SubscriptionsTable>
  pkg: Selectable<PackagesTable>
  account: Selectable<PointsAccountsTable>
  /** Set when the user is a team member: the account is the team's pool. */
  team: (Selectable<TeamsTable> & { joined_timestamp: number }) | null
}

export function isInForce(subscription: Pick<Selectable<SubscriptionsTable>, 'status'>): boolean {
  return subscription.status === 'normal'
}

/** Whole days left, rounded up; 0 once ended. */
export function remainingDays(subscription: Pick<Selectable<SubscriptionsTable>, 'status' | 'end_timestamp'>, now: number): number {
  return isInForce(subscription) ? Math.max(0, Math.ceil((subscription.end_timestamp - now) / dayMs)) : 0
}

/** The team a user belongs to, if any (a membership is for good). */
export async function findMembership(db: Database, userId: string): Promise<Plan['team']> {
  const { rows } = await membershipOf(db, { userId })
  return rows[0] ?? null
}

// Prepared (db/prepared.ts): the metered relay reads a plan on every call.
const membershipOf = prepared((db, args: { userId: string }) =>
  db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .selectAll('teams')
    .select('team_members.create_timestamp as joined_timestamp')
    .where('team_members.user_id', '=', args.userId),
)

/** The user's plan, or null when they never held a package. */
export async function findPlan(db: Database, userId: string): Promise<Plan | null> {
  const team = await findMembership(db, userId)
  return team ? findTeamPlan(db, team) : findPersonalPlan(db, userId)
}

export async function findTeamPlan(db: Database, team: NonNullable<Plan['team']>): Promise<Plan | null> {
  const subscription = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('team_id', '=', team.id)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  if (!subscription) return null
  const [pkg, account] = await Promise.all([
    findPackage(db, subscription.package_id),
    db.selectFrom('points_accounts').selectAll().where('team_id', '=', team.id).executeTakeFirstOrThrow(),
  ])
  return { subscription, pkg, account, team }
}

/** The newest personal subscription: a later one always replaces the one in force. */
export async function findPersonalPlan(db: Database, userId: string): Promise<Plan | null> {
  const subscription = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  if (!subscription) return null
  const [pkg, account] = await Promise.all([
    findPackage(db, subscription.package_id),
    db.selectFrom('points_accounts').selectAll().where('subscription_id', '=', subscription.id).executeTakeFirstOrThrow(),
  ])
  return { subscription, pkg, account, team: null }
}

/**
 * Inside a transaction: the user's plan with its account row locked (on PostgreSQL; SQLite's
 * transaction holds the whole database) and the subscription read after that lock, so both are
 * as current as catch-up needs them — the metered relay's hot path, in three reads where
 * `findPlan` and `catchUpLocked` take six. Null when the user never held a package.
 */
export async function lockPlan(trx: Database, userId: string): Promise<Plan | null> {
  const team = await findMembership(trx, userId)
  const [account] = (team ? await teamAccountLocked(trx, { teamId: team.id }) : await personalAccountLocked(trx, { userId })).rows
  if (!account) return null
  const [subscription] = (team ? await newestTeamSubscription(trx, { teamId: team.id }) : await subscriptionById(trx, { id: account.subscription_id! })).rows
  if (!subscription) return null
  return { subscription, pkg: await findPackage(trx, subscription.package_id), account, team }
}

// The account of the user's newest personal subscription, or of their team.
const personalAccountLocked = prepared((db, args: { userId: string }) =>
  db
    .selectFrom('points_accounts')
    .selectAll()
    .where('subscription_id', '=', (eb) => eb.selectFrom('subscriptions').select('id').where('user_id', '=', args.userId).orderBy('id', 'desc').limit(1))
    .$if(isPostgres(db), (qb) => qb.forNoKeyUpdate()),
)
const teamAccountLocked = prepared((db, args: { teamId: string }) =>
  db
    .selectFrom('points_accounts')
    .selectAll()
    .where('team_id', '=', args.teamId)
    .$if(isPostgres(db), (qb) => qb.forNoKeyUpdate()),
)
const subscriptionById = prepared((db, args: { id: string }) => db.selectFrom('subscriptions').selectAll().where('id', '=', args.id))
const newestTeamSubscription = prepared((db, args: { teamId: string }) =>
  db.selectFrom('subscriptions').selectAll().where('team_id', '=', args.teamId).orderBy('id', 'desc').limit(1),
)

/** Packages never change once created: each is read once per process, outside any lock. */
const packages = new Map<string, Selectable<PackagesTable>>()

export async function findPackage(db: Database, packageId: string): Promise<Selectable<PackagesTable>> {
  let pkg = packages.get(packageId)
  if (!pkg) {
    pkg = await db.selectFrom('packages').selectAll().where('id', '=', packageId).executeTakeFirstOrThrow()
    if (packages.size >= 10_000) packages.clear()
    packages.set(packageId, pkg)
  }
  return pkg
}
