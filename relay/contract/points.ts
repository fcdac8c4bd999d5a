/**
 * The caller's points (docs/architecture.md §6): balance, history, daily use, model costs and
 * the reset request. Every call needs a signed-in user. Points are integers; ids are 64-bit
 * (strings in JS); times are epoch ms.
 *
 * The user-info points block lives in accounts.ts (`PointsBlock`), since login and user info
 * return it too; packages and redeem codes in subscriptions.ts, teams in teams.ts.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, pointsForecastSchema, subscriptionStatuses, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { pageQuery, pagedSchema } from './paging.ts'
import { packageInfoSchema } from './subscriptions.ts'

export const pointsBounds = {
  resetDescription: { min: 1, max: 2000 },
} as const

/* ---------- GET /api/user/points ---------- */

/** The caller's points. Without a package: zeros, `status` `none`, `package` null. */
export const pointsSummarySchema = z
  .object({
    /** Spendable balance. */
    balance: z.int(),
    /** Cap of the balance; hourly refills stop there. */
    points_limit: z.int(),
    /** What the caller spent in the current subscription (a team member: their own share). */
    used_points: z.int(),
    /** Reserved for calls in flight, not in `balance`. */
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
    forecast: pointsForecastSchema,
  })
  .meta({ id: 'PointsSummary' })
export type PointsSummary = z.infer<typeof pointsSummarySchema>

/* ---------- GET /api/user/points/history?page&pageSize ---------- */

/**
 * Ledger row types (docs/architecture.md §6). `change` is signed: earned, unfrozen, refilled are positive;
 * consumed, frozen, expired negative, except that a refund is a `consumed` row with a positive
 * change (a reversal), so the sum of consumed rows is always the net use.
 */
/**
 * Bound of a single change, so no arithmetic on a balance can leave 32-bit integers; in the
 * contract because an operator's grant form is bounded by it too.
 */
export const maxPointsChange = 100_000_000

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
  /** A top-up code's points, added to the plan in force. */
  topup: 'topup',
  /** A package's points on activation by an operator's trial grant (no redeem code). */
  trial: 'trial',
} as const

export const pointsHistoryItemSchema = z
  .object({
    id: idSchema,
    type: z.enum(pointsEntryTypes),
    change: z.int(),
    /** The account's balance right after this row. */
    balance_after: z.int(),
    model: z.string().nullable(),
    /** One of `pointsReasons`, an operator's words, or null. */
    reason: z.string().nullable(),
    create_timestamp: timestampSchema,
    /**
     * A relayed call's line (its frozen, unfrozen and consumed rows as one net change): the call,
     * whose detail lists the rows (`GET /api/user/usage/calls/{id}`); null for any other row.
     */
    call_id: idSchema.nullable(),
  })
  .meta({ id: 'PointsHistoryItem' })
export type PointsHistoryItem = z.infer<typeof pointsHistoryItemSchema>

/** Newest first: the caller's own rows plus pool-wide rows (refills, expiry) of their team. */
export const pointsHistoryQuery = pageQuery
export const pointsHistorySchema = pagedSchema(pointsHistoryItemSchema).meta({ id: 'PointsHistory' })
export type PointsHistory = z.infer<typeof pointsHistorySchema>

/* ---------- GET /api/user/points/weekly-usage ---------- */

export const usageWindowDays = 10

export const weeklyUsageSchema = z
  .object({
    /** IANA name of the zone the days are counted in. */
    timezone: z.string(),
    /** Oldest first, exactly `usageWindowDays` entries, the last one today. */
    days: z.array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), consumed_points: z.int() })),
  })
  .meta({ id: 'WeeklyUsage' })
export type WeeklyUsage = z.infer<typeof weeklyUsageSchema>

/* ---------- GET /api/user/points/model-costs ---------- */

/** Points per hosted web search when a price sets none: 1 point (a US cent), $10 per 1,000 searches. */
export const defaultWebSearchPoints = 1

export const modelCostKinds = ['fixed', 'variable'] as const
export type ModelCostKind = (typeof modelCostKinds)[number]

/**
 * `fixed`: `points_per_call` per call, rates null. `variable`: rates in points per million
 * tokens; a null cache rate means cached tokens count as input, except 1-hour cache writes
 * (`cache_write_1h_points_per_mtok`), which then cost twice the input rate; `web_search_points`
 * per hosted web search, 1 when null (docs/pricing.md). `model` is a model id, or a
 * pattern with `*` (`claude-opus-*`) pricing every model it matches that has no price of its own:
 * the most specific pattern wins; `*` alone is the default price. `long_context_*`: a call whose
 * prompt (input, cache reads and writes) exceeds `long_context_threshold` tokens is charged these
 * percentages of the input-side and output rates, as the provider bills it; null when flat.
 */
export const modelCostSchema = z
  .object({
    model: z.string(),
    kind: z.enum(modelCostKinds),
    points_per_call: z.int().nullable(),
    input_points_per_mtok: z.int().nullable(),
    output_points_per_mtok: z.int().nullable(),
    cache_read_points_per_mtok: z.int().nullable(),
    cache_write_points_per_mtok: z.int().nullable(),
    cache_write_1h_points_per_mtok: z.int().nullable().optional(),
    web_search_points: z.int().nullable().optional(),
    long_context_threshold: z.int().nullable().optional(),
    long_context_input_percent: z.int().nullable().optional(),
    long_context_output_percent: z.int().nullable().optional(),
    description: z.string().nullable(),
  })
  .meta({ id: 'ModelCost' })
export type ModelCost = z.infer<typeof modelCostSchema>

/** Every model, sorted by name; not paged (a few dozen at most). */
export const modelCostListSchema = z.object({ items: z.array(modelCostSchema) }).meta({ id: 'ModelCostList' })
export type ModelCostList = z.infer<typeof modelCostListSchema>

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
export const resetTicketResultSchema = z
  .object({
    ticket_id: idSchema,
    ticket_number: z.string(),
    status: z.enum(['pending', 'completed']),
    auto_approved: z.boolean(),
    /** What an automatic approval added: the balance topped up to the package limit (0 while pending). */
    points_added: z.int(),
  })
  .meta({ id: 'ResetTicketResult' })
export type ResetTicketResult = z.infer<typeof resetTicketResultSchema>

const tag = 'points'

export const pointsEndpoints = {
  points: endpoint({
    method: 'get',
    path: '/api/user/points',
    summary: "The caller's points: balance, limit, use, frozen points, refill times, package",
    description: 'Hourly refills are computed on read: every whole hour since the last refill adds hour_points, up to the limit.',
    tag,
    auth: 'user',
    scope: 'billing',
    response: pointsSummarySchema,
  }),
  history: endpoint({
    method: 'get',
    path: '/api/user/points/history',
    summary: "The caller's points history, newest first",
    description: "Their own rows, and their team pool's refills and expiry since they joined. `change` is signed.",
    tag,
    auth: 'user',
    scope: 'billing',
    query: pointsHistoryQuery,
    response: pointsHistorySchema,
  }),
  weeklyUsage: endpoint({
    method: 'get',
    path: '/api/user/points/weekly-usage',
    summary: 'Points the caller consumed per day, the last 10 days',
    description: 'Calendar days in UTC+8 (Asia/Shanghai), oldest first, today last.',
    tag,
    auth: 'user',
    scope: 'billing',
    response: weeklyUsageSchema,
  }),
  modelCosts: endpoint({
    method: 'get',
    path: '/api/user/points/model-costs',
    summary: 'What a call costs per model',
    description: '`fixed`: points per call. `variable`: points per million tokens; a null cache rate bills cached tokens as input.',
    tag,
    auth: 'user',
    scope: 'billing',
    response: modelCostListSchema,
  }),
  resetTicket: endpoint({
    method: 'post',
    path: '/api/user/points/reset-ticket',
    summary: 'Ask for a points reset',
    description:
      'Creates a pointsReset ticket. Approved at once (balance topped up to the limit, ticket completed) when a personal package is in force and the last reset is old enough; else pending for an operator.',
    tag,
    auth: 'user',
    scope: 'billing',
    body: resetTicketBody,
    response: resetTicketResultSchema,
    errors: ['reset_already_pending', 'reset_not_needed'],
    idempotent: true,
  }),
}
