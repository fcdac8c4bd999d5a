/**
 * Teams (docs/product.md, docs/architecture.md §6): a team has one package subscription at a time (an operator renews
 * it) and one shared points pool through all of them.
 * Joining is irreversible: it ends the member's personal package at once (its points expire)
 * and makes them a `team` user. A user is in at most one team (the primary key of team_members),
 * so of any number of parallel joins exactly one succeeds.
 */
import type { Selectable } from 'kysely'
import type { ContentLanguage } from '../contract/languages.ts'
import type { MemberCaps, TeamCodeCheck, TeamInfo, TeamJoinResult, TeamPreview } from '../contract/teams.ts'
import { newId } from '../db/ids.ts'
import { isUniqueViolation, type Database } from '../db/open-database.ts'
import type { SubscriptionsTable, TeamsTable } from '../db/schema.ts'
import { codeGuessLimits, type CodeGuesser } from '../http/code-guessing.ts'
import { RelayError } from '../http/relay-error.ts'
import { dayOf } from '../contract/days.ts'
import { hourOf } from '../keys/limits.ts'
import { memberCaps } from '../proxy/call-leases.ts'
import { catchUpLocked, currentPlan, upToDate } from '../points/catch-up.ts'
import { inTransaction, lockUser } from '../points/locks.ts'
import { findMembership, findPersonalPlan, findTeamPlan, isInForce, remainingDays, type Plan } from '../points/plan.ts'
import { usedByMembers } from '../points/usage.ts'
import type { RelayServices } from '../services.ts'
import { startSubscription } from '../subscriptions/activation.ts'
import { currentPlanOf } from '../subscriptions/current-plan.ts'
import { recordSubscriptionEvent } from '../subscriptions/events.ts'
import type { PackageRow } from '../subscriptions/packages.ts'
import { packageName, toPackageInfo } from '../subscriptions/packages.ts'
import { endPlanInForce } from '../subscriptions/redeem-codes.ts'
import { findTeamByCode, invitationUrl, newTeamSecret, teamCodeOf } from './team-codes.ts'

type TeamRow = Selectable<TeamsTable>

const enforceAttempts = codeGuessLimits('team-code')

/** Operators (teams/operator.ts): the team, its subscription and pool; the owner joins it as its first member. */
export async function createTeam(
  db: Database,
  now: number,
  input: { name: string; pkg: PackageRow; ownerId: string },
): Promise<TeamRow> {
  if (input.pkg.kind !== 'team') throw new RelayError('business_rule', `${input.pkg.code} is a personal package`)
  return inTransaction(db, async (trx) => {
    await lockUser(trx, input.ownerId)
    if (await findMembership(trx, input.ownerId)) throw new RelayError('already_in_team')
    const team: TeamRow = { id: newId(), name: input.name, owner_id: input.ownerId, secret: newTeamSecret(), create_timestamp: now }
    await trx.insertInto('teams').values(team).execute()
    await startSubscription(trx, { holder: { teamId: team.id }, pkg: input.pkg, action: 'activated', now })
    await addMember(trx, team, input.ownerId, now)
    return team
  })
}

/**
 * Operators (teams/operator.ts): a new subscription for the team, on the same pool and with the same members. One
 * still in force ends first (cancelled, its points expire), as a personal redemption replaces
 * the package in force.
 */
export async function renewTeam(db: Database, now: number, input: { teamId: string; pkg: PackageRow }): Promise<Selectable<SubscriptionsTable>> {
  if (input.pkg.kind !== 'team') throw new RelayError('business_rule', `${input.pkg.code} is a personal package`)
  return inTransaction(db, async (trx) => {
    const team = await trx.selectFrom('teams').selectAll().where('id', '=', input.teamId).executeTakeFirst()
    if (!team) throw new RelayError('not_found', `no team ${input.teamId}`)
    const found = await findTeamPlan(trx, { ...team, joined_timestamp: team.create_timestamp })
    // Locks the pool (catch-up) before ending what is in force.
    const previous = await endPlanInForce(trx, found, now)
    return startSubscription(trx, {
      holder: { teamId: team.id },
      pkg: input.pkg,
      action: !previous ? 'activated' : previous.pkg.id === input.pkg.id ? 'renewed' : 'upgraded',
      now,
    })
  })
}

export interface TeamListing {
  id: string
  name: string
  owner: string
  package: string
  status: Selectable<SubscriptionsTable>['status']
  end_timestamp: number
  members: number
}

/**
 * Operators: every team (or the one `teamId` names) with its newest subscription and its member
 * count, newest team first. A subscription past its end shows as expired, though the row changes
 * only when next caught up.
 */
export async function listTeams(db: Database, now: number, teamId?: string): Promise<TeamListing[]> {
  const rows = await db
    .selectFrom('teams')
    .innerJoin('users', 'users.id', 'teams.owner_id')
    .innerJoin('subscriptions', (join) =>
      join.onRef('subscriptions.team_id', '=', 'teams.id').on('subscriptions.id', '=', (eb) =>
        eb.selectFrom('subscriptions as newest').select((n) => n.fn.max('newest.id').as('id')).whereRef('newest.team_id', '=', 'teams.id'),
      ),
    )
    .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
    .select((eb) => [
      'teams.id',
      'teams.name',
      'users.username as owner',
      'packages.code as package',
      'subscriptions.status',
      'subscriptions.end_timestamp',
      eb.selectFrom('team_members').select((m) => m.fn.countAll<number>().as('n')).whereRef('team_members.team_id', '=', 'teams.id').as('members'),
    ])
    .$if(teamId !== undefined, (qb) => qb.where('teams.id', '=', teamId!))
    .orderBy('teams.id', 'desc')
    .execute()
  return rows.map((row) => ({
    ...row,
    status: isInForce(row) && row.end_timestamp <= now ? 'expired' : row.status,
    members: Number(row.members),
  }))
}

/** GET /api/team/validate/{team_code}: a team one can join now. */
export async function checkTeamCode(services: RelayServices, guesser: CodeGuesser, code: string, lang: ContentLanguage): Promise<TeamCodeCheck> {
  await enforceAttempts(services.limiter, guesser)
  const { team, plan } = await joinableTeam(services.db, code, services.clock.now())
  return teamCheck(services.db, team, plan, lang)
}

/** GET /api/team/preview/{team_code}: the team's package against the caller's current plan. */
export async function previewTeam(services: RelayServices, guesser: CodeGuesser, code: string, lang: ContentLanguage): Promise<TeamPreview> {
  const { db, clock, limiter } = services
  const { userId } = guesser
  await enforceAttempts(limiter, guesser)
  const now = clock.now()
  const { team, plan } = await joinableTeam(db, code, now)
  const [check, mine, membership] = await Promise.all([teamCheck(db, team, plan, lang), currentPlan(db, userId, now), findMembership(db, userId)])
  const current = mine && isInForce(mine.subscription) ? currentPlanOf(mine, now, lang) : null
  const teamDays = remainingDays(plan.subscription, now)
  const row = (field: TeamPreview['comparison'][number]['field'], team: number, mineValue: number | undefined) => ({
    field,
    current: mineValue ?? null,
    team,
  })
  return {
    team: check,
    package: toPackageInfo(plan.pkg, lang),
    pool: { remaining_points: plan.account.balance, end_timestamp: plan.subscription.end_timestamp, remaining_days: teamDays },
    current,
    comparison: [
      row('points_limit', plan.pkg.points_limit, current?.package.points_limit),
      row('hour_points', plan.pkg.hour_points, current?.package.hour_points),
      row('validity_days', plan.pkg.validity_days, current?.package.validity_days),
      row('remaining_days', teamDays, current?.remaining_days),
      row('remaining_points', plan.account.balance, current?.remaining_points),
    ],
    replaces_personal: current !== null && membership === null,
    already_in_team: membership !== null,
  }
}

/** POST /api/team/join. */
export async function joinTeam(services: RelayServices, guesser: CodeGuesser, code: string, lang: ContentLanguage): Promise<TeamJoinResult> {
  const { db, clock, limiter } = services
  const { userId } = guesser
  await enforceAttempts(limiter, guesser)
  return inTransaction(db, async (trx) => {
    const now = clock.now()
    await lockUser(trx, userId)
    if (await findMembership(trx, userId)) throw new RelayError('already_in_team')
    const team = await findTeamByCode(trx, code)
    const plan = await addMember(trx, team, userId, now)
    return { team_id: team.id, team_name: team.name, package_name: packageName(plan.pkg, lang), user_type: 'team' }
  })
}

/** GET /api/user/team/info. */
export async function teamInfo(services: RelayServices, userId: string, lang: ContentLanguage): Promise<TeamInfo> {
  const { db, clock, config } = services
  const now = clock.now()
  const membership = await findMembership(db, userId)
  if (!membership) return { team: null, members: [] }
  const found = await findTeamPlan(db, membership)
  if (!found) return { team: null, members: [] }
  const plan = await upToDate(db, found, now)
  const [members, used] = await Promise.all([
    db
      .selectFrom('team_members')
      .innerJoin('users', 'users.id', 'team_members.user_id')
      .select([
        'users.id as user_id',
        'users.username',
        'users.name',
        'team_members.create_timestamp',
        'team_members.hourly_points_cap',
        'team_members.daily_points_cap',
        'team_members.hour_points_used',
        'team_members.points_hour',
        'team_members.day_points_used',
        'team_members.points_day',
      ])
      .where('team_members.team_id', '=', membership.id)
      .orderBy('team_members.create_timestamp')
      .orderBy('users.id')
      .execute(),
    usedByMembers(db, plan),
  ])
  const teamCode = teamCodeOf(membership)
  return {
    team: {
      id: membership.id,
      name: membership.name,
      owner_id: membership.owner_id,
      create_timestamp: membership.create_timestamp,
      team_code: teamCode,
      invite_url: invitationUrl(config.publicUrl, teamCode),
      package: toPackageInfo(plan.pkg, lang),
      status: plan.subscription.status,
      total_points: plan.pkg.points_limit,
      remaining_points: plan.account.balance,
      used_points: [...used.values()].reduce((sum, n) => sum + n, 0),
      frozen_points: plan.account.frozen,
      end_timestamp: plan.subscription.end_timestamp,
      remaining_days: remainingDays(plan.subscription, now),
    },
    members: members.map((m) => ({
      user_id: m.user_id,
      username: m.username,
      name: m.name,
      status: 'normal' as const,
      is_owner: m.user_id === membership.owner_id,
      is_current_user: m.user_id === userId,
      used_points: used.get(m.user_id) ?? 0,
      hourly_points_cap: m.hourly_points_cap,
      daily_points_cap: m.daily_points_cap,
      // Counters of an earlier hour or day count nothing now.
      hour_points_used: m.points_hour === hourOf(now) ? Number(m.hour_points_used) : 0,
      day_points_used: m.points_day === dayOf(now) ? Number(m.day_points_used) : 0,
      create_timestamp: m.create_timestamp,
    })),
  }
}

/**
 * Makes `userId` a member: ends their personal package, inserts the membership, sets the user
 * type, records the history. Callers hold the user's lock. Returns the team's plan.
 */
async function addMember(trx: Database, team: TeamRow, userId: string, now: number): Promise<Plan> {
  // Lock order (locks.ts): the personal account before the team's pool.
  const replaced = await endPlanInForce(trx, await findPersonalPlan(trx, userId), now)
  const found = await findTeamPlan(trx, { ...team, joined_timestamp: now })
  const plan = found && (await catchUpLocked(trx, found, now))
  if (!plan || !isInForce(plan.subscription)) throw new RelayError('team_inactive')
  try {
    await trx
      .insertInto('team_members')
      .values({
        user_id: userId,
        team_id: team.id,
        create_timestamp: now,
        hourly_points_cap: null,
        daily_points_cap: null,
        hour_points_used: 0,
        points_hour: 0,
        day_points_used: 0,
        points_day: 0,
      })
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw new RelayError('already_in_team')
    throw error
  }
  await trx
    .updateTable('users')
    .set({ user_type: 'team', update_timestamp: now })
    .where('id', '=', userId)
    .where('user_type', '<>', 'admin')
    .execute()
  await recordSubscriptionEvent(trx, {
    userIds: [userId],
    subscriptionId: plan.subscription.id,
    action: replaced ? 'upgraded' : 'activated',
    now,
  })
  return plan
}

/** The team of a valid code, with its plan caught up; 422 `team_inactive` once its package ended. */
async function joinableTeam(db: Database, code: string, now: number): Promise<{ team: TeamRow; plan: Plan }> {
  const team = await findTeamByCode(db, code)
  const found = await findTeamPlan(db, { ...team, joined_timestamp: now })
  const plan = found && (await upToDate(db, found, now))
  if (!plan || !isInForce(plan.subscription)) throw new RelayError('team_inactive')
  return { team, plan }
}

async function teamCheck(db: Database, team: TeamRow, plan: Plan, lang: ContentLanguage): Promise<TeamCodeCheck> {
  const { count } = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('team_id', '=', team.id)
    .executeTakeFirstOrThrow()
  return { team_id: team.id, team_name: team.name, package_name: packageName(plan.pkg, lang), member_count: Number(count) }
}

/** PUT /api/user/team/members/{id}/caps: the team's owner caps a member (themselves included). */
export async function setMemberCaps(db: Database, ownerId: string, memberId: string, caps: MemberCaps): Promise<MemberCaps> {
  const team = await findMembership(db, ownerId)
  if (!team || team.owner_id !== ownerId) throw new RelayError('forbidden', "only the team's owner sets its members' caps")
  const updated = await db.updateTable('team_members').set(caps).where('user_id', '=', memberId).where('team_id', '=', team.id).executeTakeFirst()
  if (updated.numUpdatedRows === 0n) throw new RelayError('not_found', 'no such member in your team')
  // Applies to this relay's next call at once; other relays' within their cache's few seconds.
  memberCaps.forget(memberId)
  return caps
}
