/**
 * Teams (docs/architecture.md §6): the caller's team, and the invitation flow (validate →
 * preview → join). Every call needs a signed-in user. Ids are 64-bit (strings in JS); times are
 * epoch ms.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, subscriptionStatuses, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { idDigits } from './ids.ts'
import { idPathParams } from './paths.ts'
import { maxPointsChange } from './points.ts'
import { currentPlanSchema, packageInfoSchema } from './subscriptions.ts'

export const teamBounds = {
  teamCode: { max: 128 },
} as const

/**
 * A team code is base64 of `<team_id>:<secret>` (docs/architecture.md §6). The relay issues the URL-safe
 * alphabet without padding, so a code sits in a path or query unescaped; both alphabets are
 * accepted, padded or not.
 */
export const teamCodeSchema = z.string().trim().min(1).max(teamBounds.teamCode.max)

export interface ParsedTeamCode {
  teamId: string
  secret: string
}

const teamCodePattern = new RegExp(`^(${idDigits.source}):([A-Za-z0-9_-]{8,64})$`)

/**
 * Decodes a team code, or null when it is not base64 of `<digits>:<secret>` (the portal shows
 * '无效的团队代码格式' then, without asking the relay). Isomorphic: atob exists in browsers and Node.
 */
export function parseTeamCode(code: string): ParsedTeamCode | null {
  const trimmed = code.trim()
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || trimmed.length > teamBounds.teamCode.max) return null
  const standard = trimmed.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
  if (standard.length % 4 === 1) return null
  let decoded: string
  try {
    decoded = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='))
  } catch {
    return null
  }
  const match = teamCodePattern.exec(decoded)
  return match ? { teamId: match[1]!, secret: match[2]! } : null
}

export const teamCodeParams = z.object({ team_code: teamCodeSchema })
export const teamJoinBody = z.object({ team_code: teamCodeSchema })

/** `GET /api/team/validate/{team_code}`: the code names a team one can join now. */
export const teamCodeCheckSchema = z
  .object({ team_id: idSchema, team_name: z.string(), package_name: z.string(), member_count: z.int() })
  .meta({ id: 'TeamCodeCheck' })
export type TeamCodeCheck = z.infer<typeof teamCodeCheckSchema>

export const planComparisonFields = ['points_limit', 'hour_points', 'validity_days', 'remaining_days', 'remaining_points'] as const
export type PlanComparisonField = (typeof planComparisonFields)[number]

/** `GET /api/team/preview/{team_code}`: the team, its package and how it compares to the caller's plan. */
export const teamPreviewSchema = z
  .object({
    team: teamCodeCheckSchema,
    package: packageInfoSchema,
    /** The team pool's state now. */
    pool: z.object({ remaining_points: z.int(), end_timestamp: timestampSchema, remaining_days: z.int() }),
    current: currentPlanSchema.nullable(),
    /** One row per field; `current` null when the caller holds no package. */
    comparison: z.array(z.object({ field: z.enum(planComparisonFields), current: z.int().nullable(), team: z.int() })),
    /** Joining ends the caller's personal package at once (its points expire). Irreversible. */
    replaces_personal: z.boolean(),
    /** The caller is in a team already (this one or another): joining would be refused. */
    already_in_team: z.boolean(),
  })
  .meta({ id: 'TeamPreview' })
export type TeamPreview = z.infer<typeof teamPreviewSchema>

export const teamJoinResultSchema = z
  .object({ team_id: idSchema, team_name: z.string(), package_name: z.string(), user_type: z.literal('team') })
  .meta({ id: 'TeamJoinResult' })
export type TeamJoinResult = z.infer<typeof teamJoinResultSchema>

export const teamMemberSchema = z
  .object({
    user_id: idSchema,
    username: z.string(),
    name: z.string().nullable(),
    /** Members are always `normal`: there is no leaving or suspending (joining is irreversible). */
    status: z.literal('normal'),
    is_owner: z.boolean(),
    is_current_user: z.boolean(),
    /** Points this member spent from the pool in the team's current subscription. */
    used_points: z.int(),
    /** The owner's caps on this member's points per hour and per UTC+8 day; null for none. */
    hourly_points_cap: z.int().nullable(),
    daily_points_cap: z.int().nullable(),
    /** Charged to this member this hour and today (UTC+8), as the caps count them. */
    hour_points_used: z.int(),
    day_points_used: z.int(),
    /** When they joined. */
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'TeamMember' })
export type TeamMember = z.infer<typeof teamMemberSchema>

/** `PUT /api/user/team/members/{id}/caps`: both caps at once; null (or blank in the portal) removes one. */
export const memberCapsBody = z
  .object({
    hourly_points_cap: z.int().min(1).max(maxPointsChange).nullable(),
    daily_points_cap: z.int().min(1).max(maxPointsChange).nullable(),
  })
  .meta({ id: 'MemberCaps' })
export type MemberCaps = z.infer<typeof memberCapsBody>

/** `GET /api/user/team/info`: `team` null and no members when the caller is in no team. */
export const teamInfoSchema = z
  .object({
    team: z
      .object({
        id: idSchema,
        name: z.string(),
        owner_id: idSchema,
        create_timestamp: timestampSchema,
        /** The invitation code and link: shown to every member, any member may invite. */
        team_code: z.string(),
        invite_url: z.string(),
        package: packageInfoSchema.nullable(),
        status: z.enum(subscriptionStatuses),
        total_points: z.int(),
        remaining_points: z.int(),
        /** Spent by all members in the current subscription. */
        used_points: z.int(),
        frozen_points: z.int(),
        end_timestamp: timestampSchema.nullable(),
        remaining_days: z.int(),
      })
      .nullable(),
    members: z.array(teamMemberSchema),
  })
  .meta({ id: 'TeamInfo' })
export type TeamInfo = z.infer<typeof teamInfoSchema>

const tag = 'teams'
const codeErrors = ['team_code_format', 'team_code_invalid', 'team_inactive', 'rate_limited'] as const

export const teamEndpoints = {
  info: endpoint({
    method: 'get',
    path: '/api/user/team/info',
    summary: "The caller's team, its pool and members",
    description: '`team` is null when the caller is in no team.',
    tag,
    auth: 'user',
    scope: 'billing',
    response: teamInfoSchema,
  }),
  validate: endpoint({
    method: 'get',
    path: '/api/team/validate/{team_code}',
    summary: 'Check a team invitation code',
    tag,
    auth: 'user',
    scope: 'billing',
    params: teamCodeParams,
    response: teamCodeCheckSchema,
    errors: codeErrors,
  }),
  preview: endpoint({
    method: 'get',
    path: '/api/team/preview/{team_code}',
    summary: "A team's package compared with the caller's current plan",
    tag,
    auth: 'user',
    scope: 'billing',
    params: teamCodeParams,
    response: teamPreviewSchema,
    errors: codeErrors,
  }),
  join: endpoint({
    method: 'post',
    path: '/api/team/join',
    summary: 'Join a team, for good',
    description: "Irreversible: ends the caller's personal package at once (its points expire) and makes them a team user.",
    tag,
    auth: 'user',
    scope: 'billing',
    body: teamJoinBody,
    response: teamJoinResultSchema,
    errors: [...codeErrors, 'already_in_team'],
    idempotent: true,
  }),
  setMemberCaps: endpoint({
    method: 'put',
    path: '/api/user/team/members/{id}/caps',
    summary: "Cap a member's points per hour and per day (team owner)",
    description: "The member's calls beyond a cap are refused with 429 until the hour or day (UTC+8) ends, whatever key or token they call with.",
    tag,
    auth: 'user',
    // Spending controls over other people: only the owner's portal login sets them.
    scope: 'session',
    params: idPathParams,
    body: memberCapsBody,
    response: memberCapsBody,
    errors: ['forbidden', 'not_found'],
  }),
}
