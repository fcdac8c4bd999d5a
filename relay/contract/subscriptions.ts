/**
 * Packages, redeem codes and the subscription history (docs/architecture.md §6). Every call
 * needs a signed-in user. Ids are 64-bit (strings in JS); times are epoch ms.
 *
 * The user-info subscription shape lives in accounts.ts (`Subscription`), since login and user
 * info return it too.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, packageKinds, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { pageQuery, pagedSchema } from './paging.ts'

export const subscriptionBounds = {
  redeemCode: { max: 64 },
} as const

/** A package as the user sees it. `price` is in minor units (fen); 0 means free. */
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
export type PackageInfo = z.infer<typeof packageInfoSchema>

/* ---------- Redeem codes ---------- */

/** Codes are case-insensitive; spaces and hyphens people paste along are ignored. */
export const redeemCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(subscriptionBounds.redeemCode.max)
  .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[0-9A-Z]{4,64}$/))

export const redeemCodeBody = z.object({ redeem_code: redeemCodeSchema })

/** The subscription in force, as the replace warning and the team comparison show it. */
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
export type CurrentPlan = z.infer<typeof currentPlanSchema>

/**
 * Validation does not use the code up. `replaces_active`: the caller has a package in force,
 * which redeeming ends at once (its remaining points expire), so the portal must warn (docs/product.md).
 * A top-up code (`package.kind` `topup`) replaces nothing: it adds its points to `current`, and is
 * refused without a package in force.
 */
export const redeemCodeCheckSchema = z
  .object({
    package: packageInfoSchema,
    /** When the code itself stops working; null if it never does. */
    code_expires_timestamp: timestampSchema.nullable(),
    replaces_active: z.boolean(),
    current: currentPlanSchema.nullable(),
  })
  .meta({ id: 'RedeemCodeCheck' })
export type RedeemCodeCheck = z.infer<typeof redeemCodeCheckSchema>

export const redeemResultSchema = z
  .object({
    package_name: z.string(),
    package_code: z.string(),
    package_kind: z.enum(packageKinds),
    /** Points credited by the activation or the top-up (the package's limit). */
    points_gained: z.int(),
    subscription_id: idSchema,
    start_timestamp: timestampSchema,
    end_timestamp: timestampSchema,
    /** A package in force was ended by this redemption. */
    replaced_previous: z.boolean(),
  })
  .meta({ id: 'RedeemResult' })
export type RedeemResult = z.infer<typeof redeemResultSchema>

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
    /** The subscription of this row is the one in force. */
    current: z.boolean(),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'SubscriptionHistoryItem' })
export type SubscriptionHistoryItem = z.infer<typeof subscriptionHistoryItemSchema>

export const subscriptionHistoryQuery = pageQuery
export const subscriptionHistorySchema = pagedSchema(subscriptionHistoryItemSchema).meta({ id: 'SubscriptionHistory' })
export type SubscriptionHistory = z.infer<typeof subscriptionHistorySchema>

const tag = 'subscriptions'

export const subscriptionEndpoints = {
  validateRedeemCode: endpoint({
    method: 'post',
    path: '/api/user/validate-redeem-code',
    summary: 'Check a redeem code and show its package',
    description: 'Uses nothing up. `replaces_active` warns that redeeming ends the package in force at once.',
    tag,
    auth: 'user',
    scope: 'billing',
    body: redeemCodeBody,
    response: redeemCodeCheckSchema,
    errors: ['redeem_code_invalid', 'redeem_in_team', 'topup_needs_package', 'rate_limited'],
  }),
  redeemCode: endpoint({
    method: 'post',
    path: '/api/user/redeem-code',
    summary: 'Redeem a code: its package starts now',
    description: 'A package in force ends at once and its remaining points expire; a top-up code adds its points to it instead. Each code works once.',
    tag,
    auth: 'user',
    scope: 'billing',
    body: redeemCodeBody,
    response: redeemResultSchema,
    errors: ['redeem_code_invalid', 'redeem_in_team', 'topup_needs_package', 'rate_limited'],
    idempotent: true,
  }),
  history: endpoint({
    method: 'get',
    path: '/api/user/subscriptions/history',
    summary: "What happened to the caller's subscriptions, newest first",
    tag,
    auth: 'user',
    scope: 'billing',
    query: subscriptionHistoryQuery,
    response: subscriptionHistorySchema,
  }),
}
