/**
 * What anyone may read without an account (docs/decisions/120-figures-from-hourly-aggregates.md, decisions/080-prices.md): the figures of the Home
 * page, the price list and the status page. Every figure is measured from the relay's own records,
 * refreshed in the background; where there is too little data the reply says so (`measured`
 * false) and the portal shows its target instead.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { idSchema, packageKinds } from './accounts.ts'
import { modelCostSchema } from './points.ts'

/** Below these counts over a figure's period, a figure is a target, not a measurement. */
export const publicThresholds = { calls: 100, latencySamples: 100, ticketReplies: 5 } as const

const callFigureSchema = z.object({
  /** Calls recorded in the period, and those that failed on the relay's or the providers' side. */
  calls: z.int(),
  failures: z.int(),
  /** Calls with a measured relay latency, and the bound (ms) their median is under; null without samples. */
  latency_samples: z.int(),
  median_latency_below_ms: z.int().nullable(),
})
export type CallFigure = z.infer<typeof callFigureSchema>

export const publicFiguresSchema = z
  .object({
    /** When the aggregates were last refreshed (0: never yet). */
    updated_timestamp: z.int(),
    /** Over the last `period_days` days. */
    traffic: callFigureSchema.extend({ period_days: z.int() }),
    tickets: z.object({
      period_days: z.int(),
      /** Tickets a person opened in the period that an operator answered, and the median wait for that first answer. */
      replied: z.int(),
      median_first_reply_ms: z.int().nullable(),
    }),
    /** The best saving against the providers' list prices, from the price table and the best-value package; null without one. */
    savings_percent: z.int().nullable(),
    thresholds: z.object({ calls: z.int(), latency_samples: z.int(), ticket_replies: z.int() }),
  })
  .meta({ id: 'PublicFigures' })
export type PublicFigures = z.infer<typeof publicFiguresSchema>

export const publicPricingSchema = z
  .object({
    models: z.array(
      modelCostSchema.extend({
        /** The provider's list price per million tokens, in US dollars; null when not in the list. */
        list_input_usd_per_mtok: z.number().nullable(),
        list_output_usd_per_mtok: z.number().nullable(),
        /** What this price saves against the list price at the best-value package's point price; null when not comparable. */
        savings_percent: z.int().nullable(),
      }),
    ),
    packages: z.array(
      z.object({
        code: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        kind: z.enum(packageKinds),
        points_limit: z.int(),
        hour_points: z.int(),
        validity_days: z.int(),
        /** Fen (CNY minor units); 0 = free. */
        price: z.int(),
        /** The package's price over its points limit, in fen; null when free. */
        fen_per_point: z.number().nullable(),
      }),
    ),
    /** The personal package whose point price the comparison uses; null when none has a price. */
    best_package_code: z.string().nullable(),
    /** Date of the list prices, and the exchange rate the comparison uses. */
    list_prices_date: z.string(),
    cny_per_usd: z.number(),
  })
  .meta({ id: 'PublicPricing' })
export type PublicPricing = z.infer<typeof publicPricingSchema>

const periodSchema = callFigureSchema.extend({ hours: z.int() })

export const publicStatusSchema = z
  .object({
    updated_timestamp: z.int(),
    families: z.array(z.object({ family: z.string(), day: periodSchema, week: periodSchema })),
    incidents: z.array(
      z.object({
        id: idSchema,
        title: z.string(),
        body: z.string().nullable(),
        start_timestamp: z.int(),
        resolved_timestamp: z.int().nullable(),
      }),
    ),
  })
  .meta({ id: 'PublicStatus' })
export type PublicStatus = z.infer<typeof publicStatusSchema>

export const publicEndpoints = {
  figures: endpoint({
    method: 'get',
    path: '/api/public/figures',
    summary: 'Service figures: availability, relay latency, ticket replies, savings',
    description:
      'Measured from the relay’s records over the stated period, refreshed every few minutes; below the thresholds a figure is not yet a measurement.',
    tag: 'public',
    auth: 'none',
    response: publicFiguresSchema,
  }),
  pricing: endpoint({
    method: 'get',
    path: '/api/public/pricing',
    summary: 'Model prices, packages, and what a point is worth against list prices',
    tag: 'public',
    auth: 'none',
    response: publicPricingSchema,
  }),
  status: endpoint({
    method: 'get',
    path: '/api/public/status',
    summary: 'Per model family: availability and relay latency over 24 h and 7 days; incidents',
    tag: 'public',
    auth: 'none',
    response: publicStatusSchema,
  }),
}
