/**
 * Packages, subscriptions, teams, redeem codes and points (docs/architecture.md §6). Every call needs
 * a signed-in user. Points are integers; ids are 64-bit (strings in JS); times are epoch ms.
 *
 * The user-info block and the subscription shape live in accounts.ts (`PointsBlock`,
 * `Subscription`), since login and user info return them too.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import {
  idSchema,
  packageKinds,
  subscriptionStatuses,
  timestampSchema,
  type PackageKind,
  type SubscriptionStatus,
} from './accounts.ts'
import { pageQuery, pagedSchema, type Paged } from './paging.ts'

export const pointsPaths = {
  points: '/api/user/points',
  history: '/api/user/points/history',
  weeklyUsage: '/api/user/points/weekly-usage',
  modelCosts: '/api/user/points/model-costs',
  resetTicket: '/api/user/points/reset-ticket',
  validateRedeemCode: '/api/user/validate-redeem-code',
  redeemCode: '/api/user/redeem-code',
  subscriptionHistory: '/api/user/subscriptions/history',
  teamInfo: '/api/user/team/info',
  teamValidate: '/api/team/validate/{team_code}',
  teamPreview: '/api/team/preview/{team_code}',
  teamJoin: '/api/team/join',
} as const

export const pointsBounds = {
  redeemCode: { max: 64 },
  teamCode: { max: 128 },
  resetDescription: { min: 1, max: 2000 },
} as const

/* ---------- Packages ---------- */

/** A package as the user sees it. `price` is in minor units (fen); 0 means free. */
export interface PackageInfo {
  id: string
  code: string
  name: string
  kind: PackageKind
  points_limit: number
  hour_points: number
  validity_days: number
  price: number
  description: string | null
}

export const packageInfoSchema = z
  .object({
    id: idSchema,
    code: z.string(),
    name: z.string(),
    kind: z.enum(packageKinds),
    points_limit: z.int(),
    hour_points: z.int(),
    validity_days: z.int(),
    price: z.int(),
    description: z.string().nullable(),
  })
  .meta({ id: 'PackageInfo' })

/* ---------- GET /api/user/points ---------- */

/** The caller's points. Without a package: zeros, `status` `none`, `package` null. */
export interface PointsSummary {
  /** Spendable balance. */
  balance: number
  /** Cap of the balance; hourly refills stop there. */
  points_limit: number
  /** What the caller spent in the current subscription (a team member: their own share). */
  used_points: number
  /** Reserved for calls in flight, not in `balance`. */
  frozen_points: number
  hour_points: number
  last_refill_timestamp: number | null
  next_refill_timestamp: number | null
  status: SubscriptionStatus
  start_timestamp: number | null
  end_timestamp: number | null
  remaining_days: number
  package: PackageInfo | null
  team_id: string | null
}

export const pointsSummarySchema = z
  .object({
    balance: z.int(),
    points_limit: z.int(),
    used_points: z.int(),
    frozen_points: z.int(),
    hour_points: z.int(),
    last_refill_timestamp: timestampSchema.nullable(),
    next_refill_timestamp: timestampSchema.nullable(),
    status: z.enum(subscriptionStatuses),
    start_timestamp: timestampSchema.nullable(),
    end_timestamp: timestampSchema.nullable(),
    remaining_days: z.int(),
    package: packageInfoSchema.nullable(),
    team_id: idSchema.nullable(),
  })
  .meta({ id: 'PointsSummary' })

/* ---------- GET /api/user/points/history?page&pageSize ---------- */

/**
 * Ledger row types (docs/architecture.md §6). `change` is signed: earned, unfrozen, refilled are positive;
 * consumed, frozen, expired negative, except that a refund is a `consumed` row with a positive
 * change (a reversal), so the sum of consumed rows is always the net use.
 */
export const pointsEntryTypes = ['earned', 'consumed', 'frozen', 'unfrozen', 'expired', 'refilled'] as const
export type PointsEntryType = (typeof pointsEntryTypes)[number]

/** Reasons the relay itself writes (the portal translates them); any other is an operator's own words. */
export const pointsReasons = {
  /** A package's points on activation. */
  activation: 'activation',
  /** Points of a package ended early by a redemption or a team join. */
  replaced: 'replaced',
  /** A spend given back. */
  refund: 'refund',
  /** A points reset (reset-ticket). */
  reset: 'reset',
} as const

export interface PointsHistoryItem {
  id: string
  type: PointsEntryType
  change: number
  /** The account's balance right after this row. */
  balance_after: number
  model: string | null
  /** One of `pointsReasons`, an operator's words, or null. */
  reason: string | null
  create_timestamp: number
  /** A relayed call's line: the call (see the schema below); null for any other row. */
  call_id: string | null
}

export const pointsHistoryItemSchema = z
  .object({
    id: idSchema,
    type: z.enum(pointsEntryTypes),
    change: z.int(),
    balance_after: z.int(),
    model: z.string().nullable(),
    reason: z.string().nullable(),
    create_timestamp: timestampSchema,
    /**
     * A relayed call's line (its frozen, unfrozen and consumed rows as one net change): the call,
     * whose detail lists the rows (`GET /api/user/usage/calls/{id}`); null for any other row.
     */
    call_id: idSchema.nullable(),
  })
  .meta({ id: 'PointsHistoryItem' })

/** Newest first: the caller's own rows plus pool-wide rows (refills, expiry) of their team. */
export const pointsHistoryQuery = pageQuery
export type PointsHistory = Paged<PointsHistoryItem>
export const pointsHistorySchema = pagedSchema(pointsHistoryItemSchema).meta({ id: 'PointsHistory' })

/* ---------- GET /api/user/points/weekly-usage ---------- */

/**
 * Days are calendar days in UTC+8 (China Standard Time, no daylight saving): most users are in
 * mainland China, and one fixed zone keeps every replica's answer the same
 * (docs/decisions/021).
 */
export const usageTimezone = 'Asia/Shanghai'
export const usageWindowDays = 10

export interface WeeklyUsage {
  /** IANA name of the zone the days are counted in. */
  timezone: string
  /** Oldest first, exactly `usageWindowDays` entries, the last one today. */
  days: Array<{ date: string; consumed_points: number }>
}

export const weeklyUsageSchema = z
  .object({
    timezone: z.string(),
    days: z.array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), consumed_points: z.int() })),
  })
  .meta({ id: 'WeeklyUsage' })

/* ---------- GET /api/user/points/model-costs ---------- */

export const modelCostKinds = ['fixed', 'variable'] as const
export type ModelCostKind = (typeof modelCostKinds)[number]

/**
 * `fixed`: `points_per_call` per call, rates null. `variable`: rates in points per million
 * tokens; a null cache rate means cached tokens count as input. `model` is a model id, or a
 * pattern with `*` (`claude-opus-*`) pricing every model it matches that has no price of its own:
 * the most specific pattern wins; `*` alone is the default price. `long_context_*`: a call whose
 * prompt (input, cache reads and writes) exceeds `long_context_threshold` tokens is charged these
 * percentages of the input-side and output rates, as the provider bills it; null when flat.
 */
export interface ModelCost {
  model: string
  kind: ModelCostKind
  points_per_call: number | null
  input_points_per_mtok: number | null
  output_points_per_mtok: number | null
  cache_read_points_per_mtok: number | null
  cache_write_points_per_mtok: number | null
  long_context_threshold?: number | null
  long_context_input_percent?: number | null
  long_context_output_percent?: number | null
  description: string | null
}

export const modelCostSchema = z
  .object({
    model: z.string(),
    kind: z.enum(modelCostKinds),
    points_per_call: z.int().nullable(),
    input_points_per_mtok: z.int().nullable(),
    output_points_per_mtok: z.int().nullable(),
    cache_read_points_per_mtok: z.int().nullable(),
    cache_write_points_per_mtok: z.int().nullable(),
    long_context_threshold: z.int().nullable().optional(),
    long_context_input_percent: z.int().nullable().optional(),
    long_context_output_percent: z.int().nullable().optional(),
    description: z.string().nullable(),
  })
  .meta({ id: 'ModelCost' })

/** Every model, sorted by name; not paged (a few dozen at most). */
export const modelCostListSchema = z.object({ items: z.array(modelCostSchema) }).meta({ id: 'ModelCostList' })
export interface ModelCostList {
  items: ModelCost[]
}

/* ---------- POST /api/user/points/reset-ticket ---------- */

export const resetReasons = ['account_abnormal', 'misoperation', 'service_quality', 'technical_fault', 'other'] as const
export type ResetReason = (typeof resetReasons)[number]

export const resetTicketBody = z.object({
  reason: z.enum(resetReasons),
  description: z.string().trim().min(pointsBounds.resetDescription.min).max(pointsBounds.resetDescription.max),
})

/**
 * `auto_approved`: the balance was reset to the limit at once and the ticket is `completed`;
 * otherwise it is `pending` for an operator (1–3 working days).
 */
export interface ResetTicketResult {
  ticket_id: string
  ticket_number: string
  status: 'pending' | 'completed'
  auto_approved: boolean
  /** What an automatic approval added: the balance topped up to the package limit (0 while pending). */
  points_added: number
}

export const resetTicketResultSchema = z
  .object({
    ticket_id: idSchema,
    ticket_number: z.string(),
    status: z.enum(['pending', 'completed']),
    auto_approved: z.boolean(),
    points_added: z.int(),
  })
  .meta({ id: 'ResetTicketResult' })

/* ---------- Redeem codes ---------- */

/** Codes are case-insensitive; spaces and hyphens people paste along are ignored. */
export const redeemCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(pointsBounds.redeemCode.max)
  .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[0-9A-Z]{4,64}$/))

export const redeemCodeBody = z.object({ redeem_code: redeemCodeSchema })

/** The subscription in force, as the replace warning and the team comparison show it. */
export interface CurrentPlan {
  subscription_id: string
  package: PackageInfo
  team_id: string | null
  team_name: string | null
  remaining_points: number
  end_timestamp: number
  remaining_days: number
}

export const currentPlanSchema = z
  .object({
    subscription_id: idSchema,
    package: packageInfoSchema,
    team_id: idSchema.nullable(),
    team_name: z.string().nullable(),
    remaining_points: z.int(),
    end_timestamp: timestampSchema,
    remaining_days: z.int(),
  })
  .meta({ id: 'CurrentPlan' })

/**
 * Validation does not use the code up. `replaces_active`: the caller has a package in force,
 * which redeeming ends at once (its remaining points expire), so the portal must warn (docs/product.md).
 */
export interface RedeemCodeCheck {
  package: PackageInfo
  /** When the code itself stops working; null if it never does. */
  code_expires_timestamp: number | null
  replaces_active: boolean
  current: CurrentPlan | null
}

export const redeemCodeCheckSchema = z
  .object({
    package: packageInfoSchema,
    code_expires_timestamp: timestampSchema.nullable(),
    replaces_active: z.boolean(),
    current: currentPlanSchema.nullable(),
  })
  .meta({ id: 'RedeemCodeCheck' })

export interface RedeemResult {
  package_name: string
  package_code: string
  /** Points credited by the activation (the package's limit). */
  points_gained: number
  subscription_id: string
  start_timestamp: number
  end_timestamp: number
  /** A package in force was ended by this redemption. */
  replaced_previous: boolean
}

export const redeemResultSchema = z
  .object({
    package_name: z.string(),
    package_code: z.string(),
    points_gained: z.int(),
    subscription_id: idSchema,
    start_timestamp: timestampSchema,
    end_timestamp: timestampSchema,
    replaced_previous: z.boolean(),
  })
  .meta({ id: 'RedeemResult' })

/* ---------- GET /api/user/subscriptions/history?page&pageSize ---------- */

/**
 * What happened to the caller's subscriptions, newest first. The relay writes activated (a
 * package with none in force), renewed (the same package redeemed while in force), upgraded (a
 * different package or a team replaced the one in force), cancelled (ended early by that
 * replacement) and expired (reached its end). `current` is never stored: the reply marks the
 * rows of the subscription in force with `current: true` instead; the value is listed because
 * other relays send it and the portal renders it.
 */
export const subscriptionActions = ['activated', 'expired', 'current', 'renewed', 'upgraded', 'cancelled'] as const
export type SubscriptionAction = (typeof subscriptionActions)[number]

export interface SubscriptionHistoryItem {
  id: string
  action: SubscriptionAction
  subscription_id: string
  package_name: string
  package_code: string
  package_kind: PackageKind
  team_name: string | null
  start_timestamp: number
  end_timestamp: number
  /** The subscription of this row is the one in force. */
  current: boolean
  create_timestamp: number
}

export const subscriptionHistoryItemSchema = z
  .object({
    id: idSchema,
    action: z.enum(subscriptionActions),
    subscription_id: idSchema,
    package_name: z.string(),
    package_code: z.string(),
    package_kind: z.enum(packageKinds),
    team_name: z.string().nullable(),
    start_timestamp: timestampSchema,
    end_timestamp: timestampSchema,
    current: z.boolean(),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'SubscriptionHistoryItem' })

export const subscriptionHistoryQuery = pageQuery
export type SubscriptionHistory = Paged<SubscriptionHistoryItem>
export const subscriptionHistorySchema = pagedSchema(subscriptionHistoryItemSchema).meta({ id: 'SubscriptionHistory' })

/* ---------- Teams ---------- */

/**
 * A team code is base64 of `<team_id>:<secret>` (docs/architecture.md §6). The relay issues the URL-safe
 * alphabet without padding, so a code sits in a path or query unescaped; both alphabets are
 * accepted, padded or not.
 */
export const teamCodeSchema = z.string().trim().min(1).max(pointsBounds.teamCode.max)

export interface ParsedTeamCode {
  teamId: string
  secret: string
}

/**
 * Decodes a team code, or null when it is not base64 of `<digits>:<secret>` (the portal shows
 * '无效的团队代码格式' then, without asking the relay). Isomorphic: atob exists in browsers and Node.
 */
export function parseTeamCode(code: string): ParsedTeamCode | null {
  const trimmed = code.trim()
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || trimmed.length > pointsBounds.teamCode.max) return null
  const standard = trimmed.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
  if (standard.length % 4 === 1) return null
  let decoded: string
  try {
    decoded = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='))
  } catch {
    return null
  }
  const match = /^(\d{1,20}):([A-Za-z0-9_-]{8,64})$/.exec(decoded)
  return match ? { teamId: match[1]!, secret: match[2]! } : null
}

export const teamCodeParams = z.object({ team_code: teamCodeSchema })
export const teamJoinBody = z.object({ team_code: teamCodeSchema })

/** `GET /api/team/validate/{team_code}`: the code names a team one can join now. */
export interface TeamCodeCheck {
  team_id: string
  team_name: string
  package_name: string
  member_count: number
}

export const teamCodeCheckSchema = z
  .object({ team_id: idSchema, team_name: z.string(), package_name: z.string(), member_count: z.int() })
  .meta({ id: 'TeamCodeCheck' })

export const planComparisonFields = ['points_limit', 'hour_points', 'validity_days', 'remaining_days', 'remaining_points'] as const
export type PlanComparisonField = (typeof planComparisonFields)[number]

/** `GET /api/team/preview/{team_code}`: the team, its package and how it compares to the caller's plan. */
export interface TeamPreview {
  team: TeamCodeCheck
  package: PackageInfo
  /** The team pool's state now. */
  pool: { remaining_points: number; end_timestamp: number; remaining_days: number }
  current: CurrentPlan | null
  /** One row per field; `current` null when the caller holds no package. */
  comparison: Array<{ field: PlanComparisonField; current: number | null; team: number }>
  /** Joining ends the caller's personal package at once (its points expire). Irreversible. */
  replaces_personal: boolean
  /** The caller is in a team already (this one or another): joining would be refused. */
  already_in_team: boolean
}

export const teamPreviewSchema = z
  .object({
    team: teamCodeCheckSchema,
    package: packageInfoSchema,
    pool: z.object({ remaining_points: z.int(), end_timestamp: timestampSchema, remaining_days: z.int() }),
    current: currentPlanSchema.nullable(),
    comparison: z.array(z.object({ field: z.enum(planComparisonFields), current: z.int().nullable(), team: z.int() })),
    replaces_personal: z.boolean(),
    already_in_team: z.boolean(),
  })
  .meta({ id: 'TeamPreview' })

export interface TeamJoinResult {
  team_id: string
  team_name: string
  package_name: string
  user_type: 'team'
}

export const teamJoinResultSchema = z
  .object({ team_id: idSchema, team_name: z.string(), package_name: z.string(), user_type: z.literal('team') })
  .meta({ id: 'TeamJoinResult' })

export interface TeamMember {
  user_id: string
  username: string
  name: string | null
  /** Members are always `normal`: there is no leaving or suspending (joining is irreversible). */
  status: 'normal'
  is_owner: boolean
  is_current_user: boolean
  /** Points this member spent from the pool in the team's current subscription. */
  used_points: number
  /** When they joined. */
  create_timestamp: number
}

export const teamMemberSchema = z
  .object({
    user_id: idSchema,
    username: z.string(),
    name: z.string().nullable(),
    status: z.literal('normal'),
    is_owner: z.boolean(),
    is_current_user: z.boolean(),
    used_points: z.int(),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'TeamMember' })

/** `GET /api/user/team/info`: `team` null and no members when the caller is in no team. */
export interface TeamInfo {
  team: {
    id: string
    name: string
    owner_id: string
    create_timestamp: number
    /** The invitation code and link: shown to every member, any member may invite. */
    team_code: string
    invite_url: string
    package: PackageInfo | null
    status: SubscriptionStatus
    total_points: number
    remaining_points: number
    /** Spent by all members in the current subscription. */
    used_points: number
    frozen_points: number
    end_timestamp: number | null
    remaining_days: number
  } | null
  members: TeamMember[]
}

export const teamInfoSchema = z
  .object({
    team: z
      .object({
        id: idSchema,
        name: z.string(),
        owner_id: idSchema,
        create_timestamp: timestampSchema,
        team_code: z.string(),
        invite_url: z.string(),
        package: packageInfoSchema.nullable(),
        status: z.enum(subscriptionStatuses),
        total_points: z.int(),
        remaining_points: z.int(),
        used_points: z.int(),
        frozen_points: z.int(),
        end_timestamp: timestampSchema.nullable(),
        remaining_days: z.int(),
      })
      .nullable(),
    members: z.array(teamMemberSchema),
  })
  .meta({ id: 'TeamInfo' })
