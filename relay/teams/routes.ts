/** Teams: the caller's team, and the invitation flow (validate → preview → join). */
import { pointsPaths, teamCodeCheckSchema, teamCodeParams, teamInfoSchema, teamJoinBody, teamJoinResultSchema, teamPreviewSchema } from '../contract/points.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { checkTeamCode, joinTeam, previewTeam, teamInfo } from './teams.ts'

const tag = 'teams'
const codeErrors = ['team_code_format', 'team_code_invalid', 'team_inactive', 'rate_limited'] as const

export function teamRoutes(services: RelayServices): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: pointsPaths.teamInfo,
      summary: "The caller's team, its pool and members",
      description: '`team` is null when the caller is in no team.',
      tag,
      auth: 'user',
      scope: 'billing',
      response: teamInfoSchema,
      handler: async ({ user, lang }) => teamInfo(services, user.id, lang),
    }),
    defineRoute({
      method: 'get',
      path: pointsPaths.teamValidate,
      summary: 'Check a team invitation code',
      tag,
      auth: 'user',
      scope: 'billing',
      params: teamCodeParams,
      response: teamCodeCheckSchema,
      errors: [...codeErrors],
      handler: async ({ user, params, lang }) => checkTeamCode(services, user.id, params.team_code, lang),
    }),
    defineRoute({
      method: 'get',
      path: pointsPaths.teamPreview,
      summary: "A team's package compared with the caller's current plan",
      tag,
      auth: 'user',
      scope: 'billing',
      params: teamCodeParams,
      response: teamPreviewSchema,
      errors: [...codeErrors],
      handler: async ({ user, params, lang }) => previewTeam(services, user.id, params.team_code, lang),
    }),
    defineRoute({
      method: 'post',
      path: pointsPaths.teamJoin,
      summary: 'Join a team, for good',
      description: "Irreversible: ends the caller's personal package at once (its points expire) and makes them a team user.",
      tag,
      auth: 'user',
      scope: 'billing',
      body: teamJoinBody,
      response: teamJoinResultSchema,
      errors: [...codeErrors, 'already_in_team'],
      idempotent: true,
      handler: async ({ user, body, lang }) => joinTeam(services, user.id, body.team_code, lang),
    }),
  ]
}
