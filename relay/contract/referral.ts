/**
 * The referral programme (docs/product.md, §9; docs/architecture.md §6). A user's invite code binds an invitee at
 * registration, once and permanently; rewards follow the configured rule whenever the invitee
 * redeems a paid package: one amount for the first paid purchase, another for each later one,
 * paid to both sides in points and/or membership days.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { pageQuery, pagedSchema } from './paging.ts'

/** Bounds keep an operator's typo from minting absurd amounts. */
const points = z.int().min(0).max(1_000_000)
const days = z.int().min(0).max(3650)

export const referralRewardSchema = z
  .object({ inviter_points: points, invitee_points: points, inviter_days: days, invitee_days: days })
  .meta({ id: 'ReferralReward' })
export type ReferralReward = z.infer<typeof referralRewardSchema>

export const referralRuleSchema = z
  .object({ first: referralRewardSchema, later: referralRewardSchema })
  .meta({ id: 'ReferralRule' })
export type ReferralRule = z.infer<typeof referralRuleSchema>

/**
 * docs/product.md, Constants: a first purchase gives both sides 3 × 2000 + 4 × 1000 points, each later one 1 × 2000;
 * the days the Chinese copy mentions are left to the operator (docs/decisions/052-referral.md).
 */
export const defaultReferralRule: ReferralRule = {
  first: { inviter_points: 3 * 2000 + 4 * 1000, invitee_points: 3 * 2000 + 4 * 1000, inviter_days: 0, invitee_days: 0 },
  later: { inviter_points: 2000, invitee_points: 2000, inviter_days: 0, invitee_days: 0 },
}

export const referralStatsSchema = z
  .object({
    total_invites: z.int(),
    /** Invitees who redeemed a paid package. */
    valid_invites: z.int(),
    /** What the caller earned as an inviter. */
    cumulative_reward_days: z.int(),
    cumulative_reward_points: z.int(),
    invite_code: z.string(),
    rule: referralRuleSchema,
  })
  .meta({ id: 'ReferralStats' })
export type ReferralStats = z.infer<typeof referralStatsSchema>

export const referralStatuses = ['pending', 'rewarded'] as const
export type ReferralStatus = (typeof referralStatuses)[number]

/** One invitee, as the inviter sees them: the username is masked (privacy). */
export const referralRecordSchema = z
  .object({
    id: idSchema,
    username: z.string(),
    /** When the invitee registered. */
    create_timestamp: timestampSchema,
    /** What the inviter earned from this invitee so far. */
    reward_days: z.int(),
    reward_points: z.int(),
    status: z.enum(referralStatuses),
  })
  .meta({ id: 'ReferralRecord' })
export type ReferralRecord = z.infer<typeof referralRecordSchema>

export const referralRecordsQuery = pageQuery
export const referralRecordsSchema = pagedSchema(referralRecordSchema).meta({ id: 'ReferralRecords' })
export type ReferralRecords = z.infer<typeof referralRecordsSchema>

const tag = 'referral'

export const referralEndpoints = {
  stats: endpoint({
    method: 'get',
    path: '/api/user/referral/stats',
    summary: 'Invites, rewards earned, the invite code and the reward rule',
    tag,
    auth: 'user',
    scope: 'billing',
    response: referralStatsSchema,
  }),
  records: endpoint({
    method: 'get',
    path: '/api/user/referral/records',
    summary: "The caller's invitees (usernames masked), newest first",
    description: '`status` is rewarded once the invitee has redeemed a paid package.',
    tag,
    auth: 'user',
    scope: 'billing',
    query: referralRecordsQuery,
    response: referralRecordsSchema,
  }),
}
