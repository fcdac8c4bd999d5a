/**
 * Teams as operators handle them, from the console (relay/admin/catalog-routes.ts) and the CLI
 * (teams/cli.ts) alike: create one, renew its subscription, look at its members; each change with
 * its audit row in its transaction (docs/decisions/116-operator-audit-log.md).
 */
import type { AdminTeamDetail } from '../contract/admin-catalog.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { inTransaction } from '../points/locks.ts'
import { findPackageByCode } from '../subscriptions/packages.ts'
import { findUserByUsername } from '../users/users.ts'
import { invitationUrl, teamCodeOf } from './team-codes.ts'
import { createTeam, listTeams, renewTeam } from './teams.ts'

async function packageOrRefuse(db: Database, code: string) {
  const pkg = await findPackageByCode(db, code)
  if (!pkg) throw new RelayError('not_found', `no package with code ${code}`)
  return pkg
}

/** The new team's id and code; the owner (a username) joins it at once. */
export async function createTeamAsOperator(db: Database, operator: Operator, input: { name: string; packageCode: string; owner: string; now: number }) {
  return inTransaction(db, async (trx) => {
    const [pkg, owner] = await Promise.all([packageOrRefuse(trx, input.packageCode), findUserByUsername(trx, input.owner)])
    if (!owner) throw new RelayError('not_found', `no user named ${input.owner}`)
    const team = await createTeam(trx, input.now, { name: input.name, pkg, ownerId: owner.id })
    await recordAudit(trx, operator, { action: 'team.create', target: { kind: 'team', ref: team.id }, after: { name: team.name, package: pkg.code, owner: owner.username } }, input.now)
    return { id: team.id, teamCode: teamCodeOf(team) }
  })
}

export async function renewTeamAsOperator(db: Database, operator: Operator, input: { teamId: string; packageCode: string; now: number }) {
  return inTransaction(db, async (trx) => {
    const pkg = await packageOrRefuse(trx, input.packageCode)
    const [before] = await listTeams(trx, input.now, input.teamId)
    const subscription = await renewTeam(trx, input.now, { teamId: input.teamId, pkg })
    await recordAudit(
      trx,
      operator,
      {
        action: 'team.renew',
        target: { kind: 'team', ref: input.teamId },
        before: before ? { package: before.package, status: before.status, end_timestamp: before.end_timestamp } : undefined,
        after: { package: pkg.code, status: subscription.status, end_timestamp: subscription.end_timestamp },
      },
      input.now,
    )
    return subscription
  })
}

/** The team, its code, its invitation link on `publicUrl` (null: unknown) and its members in the order they joined. */
export async function teamForOperator(db: Database, teamId: string, now: number, publicUrl: string | null): Promise<AdminTeamDetail> {
  const [listed] = await listTeams(db, now, teamId)
  const row = await db.selectFrom('teams').select(['id', 'secret']).where('id', '=', teamId).executeTakeFirst()
  if (!listed || !row) throw new RelayError('not_found', 'no such team')
  const members = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['users.id as user_id', 'users.username', 'team_members.create_timestamp as joined_timestamp'])
    .where('team_members.team_id', '=', teamId)
    .orderBy('team_members.create_timestamp')
    .orderBy('users.id')
    .execute()
  const teamCode = teamCodeOf(row)
  return { team: listed, team_code: teamCode, invite_url: publicUrl ? invitationUrl(publicUrl, teamCode) : null, members }
}
