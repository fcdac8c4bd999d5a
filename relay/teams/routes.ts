/** Teams: the caller's team, and the invitation flow (validate → preview → join). */
import { teamEndpoints } from '../contract/teams.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { checkTeamCode, joinTeam, previewTeam, setMemberCaps, teamInfo } from './teams.ts'

export function teamRoutes(services: RelayServices): Route[] {
  return [
    defineRoute(teamEndpoints.info, async ({ user, lang }) => teamInfo(services, user.id, lang)),
    defineRoute(teamEndpoints.validate, async ({ user, params, lang, clientIp }) => checkTeamCode(services, { userId: user.id, clientIp }, params.team_code, lang)),
    defineRoute(teamEndpoints.preview, async ({ user, params, lang, clientIp }) => previewTeam(services, { userId: user.id, clientIp }, params.team_code, lang)),
    defineRoute(teamEndpoints.join, async ({ user, body, lang, clientIp }) => joinTeam(services, { userId: user.id, clientIp }, body.team_code, lang)),
    defineRoute(teamEndpoints.setMemberCaps, async ({ user, params, body }) => setMemberCaps(services.db, user.id, params.id, body)),
  ]
}
