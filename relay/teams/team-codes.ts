/**
 * Team invitation codes: base64 of `<team_id>:<secret>` (docs/architecture.md §6), issued in the URL-safe
 * alphabet without padding so the code sits in a link as is. The secret is kept in clear so any
 * member can show the invitation again (docs/decisions/023-packages-teams-codes-resets.md); it is compared in constant time.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Selectable } from 'kysely'
import { parseTeamCode } from '../contract/teams.ts'
import type { Database } from '../db/open-database.ts'
import type { TeamsTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'

export function newTeamSecret(): string {
  return randomBytes(16).toString('base64url')
}

export function teamCodeOf(team: Pick<Selectable<TeamsTable>, 'id' | 'secret'>): string {
  return Buffer.from(`${team.id}:${team.secret}`).toString('base64url')
}

export function invitationUrl(publicUrl: string, teamCode: string): string {
  const url = new URL('/subscription', publicUrl)
  url.searchParams.set('team_code', teamCode)
  return url.toString()
}

/** The team a code names: 400 `team_code_format` if it is not a team code at all, 422 `team_code_invalid` if no team matches. */
export async function findTeamByCode(db: Database, code: string): Promise<Selectable<TeamsTable>> {
  const parsed = parseTeamCode(code)
  if (!parsed) throw new RelayError('team_code_format')
  const team = await db.selectFrom('teams').selectAll().where('id', '=', parsed.teamId).executeTakeFirst()
  if (!team || !sameSecret(team.secret, parsed.secret)) throw new RelayError('team_code_invalid')
  return team
}

function sameSecret(stored: string, given: string): boolean {
  const a = Buffer.from(stored)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}
