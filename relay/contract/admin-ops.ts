/**
 * The operator console's operations calls (docs/decisions/115-operator-console.md, decisions/120-figures-from-hourly-aggregates.md, decisions/115-operator-console.md): the overview, upstream
 * providers, model prices and ticket assignment. `auth: 'admin'` under `/api/admin`, like
 * admin.ts; each change goes through the service function the CLI runs, which writes its audit row.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, timestampSchema } from './accounts.ts'
import { modelPatternSchema } from './api-keys.ts'
import { endpoint } from './endpoint.ts'
import { bulkChangedSchema, bulkRows } from './paging.ts'
import { idPathParams } from './paths.ts'
import { modelCostKinds, modelCostSchema } from './points.ts'
import { ticketStatuses } from './tickets.ts'

/* ---------- Overview ---------- */

export const overviewPeriods = ['24h', '7d', '30d'] as const
export type OverviewPeriod = (typeof overviewPeriods)[number]
/** Each period in hours: the current, partial hour and the ones before it. */
export const overviewPeriodHours: Record<OverviewPeriod, number> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 }

export const overviewQuery = z.object({ period: z.enum(overviewPeriods).default('24h') })

/**
 * How a call ended, as the console and the metrics (`relay_calls_total{outcome}`) both name it: the
 * usage log's outcome → its label, one table for both, so the two never disagree.
 */
export const outcomeLabelOf = { completed: 'answered', failed: 'failed', cut: 'cut', abandoned: 'cut', refused: 'refused' } as const

/**
 * Calls over a period, counted as `relay_calls_total` counts them: `calls` is `answered` +
 * `failures` + `cut` + `refused` (by the provider); `failures`: outcome `failed` (the relay or
 * every provider failed), as the public figures count them; `relay_refused`: calls the relay
 * refused itself, which the metrics count in `relay_refusals_total`. Latencies are the bounds of histogram buckets (docs/decisions/120-figures-from-hourly-aggregates.md):
 * the percentile is under that many ms; null without samples.
 */
export const callFiguresSchema = z.object({
  calls: z.int(),
  answered: z.int(),
  failures: z.int(),
  cut: z.int(),
  refused: z.int(),
  relay_refused: z.int(),
  points: z.int(),
  input_tokens: z.int(),
  output_tokens: z.int(),
  latency_samples: z.int(),
  relay_p50_below_ms: z.int().nullable(),
  relay_p95_below_ms: z.int().nullable(),
  first_byte_p50_below_ms: z.int().nullable(),
})
export type CallFigures = z.output<typeof callFiguresSchema>

export const circuitStates = ['closed', 'open', 'half-open'] as const

export const providerKinds = ['anthropic', 'openai', 'gemini'] as const
export type ProviderKind = (typeof providerKinds)[number]

/** A provider as operators see it: never its key, only the key's masked tail. */
export const adminProviderSchema = z
  .object({
    id: idSchema,
    kind: z.enum(providerKinds),
    base_url: z.string(),
    /** `kind · host`, with the key's last four characters (then the id) when another provider shares it. */
    label: z.string(),
    key: z.string(),
    models: z.array(z.string()),
    /** Requested names sent upstream under others, first match wins (relay/proxy/model-mapping.ts). */
    model_map: z.array(z.object({ from: z.string(), to: z.string() })),
    priority: z.int(),
    enabled: z.boolean(),
    /** False when no configured JWT secret opens the key (rotated away): add the provider again. */
    key_readable: z.boolean(),
    create_timestamp: timestampSchema,
    /** As the relays report it (docs/decisions/073-upstream-calls.md); `open_until` for an open circuit. */
    circuit: z.object({ state: z.enum(circuitStates), open_until: timestampSchema.nullable(), relays: z.int() }),
    /** The last 24 hours of its calls. */
    recent: callFiguresSchema,
  })
  .meta({ id: 'AdminProvider' })
export type AdminProvider = z.output<typeof adminProviderSchema>

export const overviewSchema = z
  .object({
    period: z.enum(overviewPeriods),
    /** The first hour counted. */
    from_timestamp: timestampSchema,
    /** When the background aggregation last ran: calls made since are not counted yet. */
    updated_timestamp: timestampSchema,
    totals: callFiguresSchema.extend({ active_users: z.int(), active_keys: z.int() }),
    by_model: z.array(callFiguresSchema.extend({ model: z.string() })),
    /** `provider_id` null: calls that reached no provider. */
    by_provider: z.array(callFiguresSchema.extend({ provider_id: idSchema.nullable(), provider: z.string().nullable() })),
    tickets: z.array(z.object({ status: z.enum(ticketStatuses), count: z.int() })),
    providers: z.array(adminProviderSchema),
  })
  .meta({ id: 'AdminOverview' })
export type AdminOverview = z.output<typeof overviewSchema>

/** The overview's figures over time: one model or provider, or all. */
export const overviewSeriesQuery = overviewQuery.extend({
  model: z.string().trim().min(1).max(128).optional(),
  provider_id: idSchema.optional(),
})

/**
 * Calls, failures, points and tokens per hour over 24 hours and per day (UTC+8) over 7 or 30 days,
 * every bucket present: the overview's totals spread over time, from the same hourly aggregates,
 * so the buckets add up to the overview's figures (the first day may be partial, as the period is).
 */
export const overviewSeriesSchema = z
  .object({
    period: z.enum(overviewPeriods),
    bucket: z.enum(['hour', 'day']),
    from_timestamp: timestampSchema,
    buckets: z.array(
      z.object({
        /** The bucket's first instant: a UTC hour, or 00:00 UTC+8. */
        start: timestampSchema,
        calls: z.int(),
        failures: z.int(),
        relay_refused: z.int(),
        points: z.int(),
        input_tokens: z.int(),
        output_tokens: z.int(),
      }),
    ),
  })
  .meta({ id: 'AdminOverviewSeries' })
export type AdminOverviewSeries = z.output<typeof overviewSeriesSchema>

/* ---------- Reconciliation ---------- */

export const reconciliationQuery = z.object({
  /** A calendar month in UTC, as providers invoice. */
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM'),
})

const usageCounts = {
  calls: z.int(),
  input_tokens: z.int(),
  output_tokens: z.int(),
  cache_read_tokens: z.int(),
  /** 5-minute cache writes. */
  cache_write_tokens: z.int(),
  cache_write_1h_tokens: z.int(),
  web_search_requests: z.int(),
}

export const reconciliationSchema = z
  .object({
    month: z.string(),
    from_timestamp: timestampSchema,
    to_timestamp: timestampSchema,
    /** When the list prices compared with were read. */
    list_prices_date: z.string(),
    rows: z.array(
      z.object({
        model: z.string(),
        /** Null: calls that reached no provider. */
        provider_id: idSchema.nullable(),
        provider: z.string().nullable(),
        ...usageCounts,
        /** Points the relay charged for these calls. */
        points: z.int(),
        /** What the same usage costs at the providers' list prices, in US cents; null for a model the list has not. */
        list_cents: z.number().nullable(),
      }),
    ),
    totals: z.object({
      calls: z.int(),
      points: z.int(),
      /** Points charged for the models the list has, to compare with `list_cents`. */
      listed_points: z.int(),
      list_cents: z.number(),
    }),
  })
  .meta({ id: 'Reconciliation' })
export type Reconciliation = z.output<typeof reconciliationSchema>

/** The providers' list prices the price page and the reconciliation compare with, and when they were read. */
export const adminListPricesSchema = z
  .object({
    /** The day the providers' price pages were read. */
    read_on: z.iso.date('a date, YYYY-MM-DD'),
    /** CNY per US dollar on that day, in fen: 720 is 7.20. */
    fen_per_usd: z.int().min(100).max(10_000),
    items: z
      .array(
        z.object({
          model: modelPatternSchema,
          input_cents_per_mtok: z.int().min(0).max(10_000_000),
          output_cents_per_mtok: z.int().min(0).max(10_000_000),
        }),
      )
      .max(500)
      .refine((items) => new Set(items.map((item) => item.model.toLowerCase())).size === items.length, 'each model once'),
  })
  .meta({ id: 'AdminListPrices' })
export type AdminListPrices = z.output<typeof adminListPricesSchema>

/* ---------- Providers ---------- */

/** Patterns separated by commas or spaces, as the CLI's `--models` and the console's field take them. */
export const modelPatternListSchema = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(modelPatternSchema).min(1, 'at least one pattern').max(50))

/** One entry of a provider's model mapping (relay/proxy/model-mapping.ts). */
export const modelMapEntrySchema = z
  .object({ from: modelPatternSchema, to: modelPatternSchema })
  .refine(({ from }) => from.split('*').length <= 2, { message: 'at most one * in a mapped name', path: ['from'] })
  .refine(({ from, to }) => !to.includes('*') || (from.includes('*') && to.split('*').length === 2), {
    message: 'a * in the upstream name needs one * in the requested name',
    path: ['to'],
  })
export type ModelMapEntry = z.output<typeof modelMapEntrySchema>

/**
 * `requested=upstream` pairs separated by commas, spaces or lines, as the CLI's `--map` and the
 * console's field take them; blank for no mapping.
 */
export const modelMapListSchema = z
  .string()
  .transform((value, ctx) =>
    value
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((pair) => {
        const [from = '', to = '', extra] = pair.split('=')
        if (extra !== undefined || !from || !to) ctx.addIssue({ code: 'custom', message: `${pair}: write it as requested=upstream` })
        return { from, to }
      }),
  )
  .pipe(z.array(modelMapEntrySchema).max(50))

export const providerPrioritySchema = z.int().min(-1000).max(1000)

export const providerBaseUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((url) => url.replace(/\/+$/, ''))
  .refine((url) => {
    const parsed = new URL(url)
    return !parsed.username && !parsed.password && !parsed.search && !parsed.hash
  }, 'no credentials, query or fragment in the URL: the key goes in its own field')

/**
 * Anthropic's SDK appends /v1/messages itself, Google's /v1beta/models/…: a base ending in /v1 or
 * /v1beta would call the path twice.
 */
export function baseUrlProblem(kind: ProviderKind, baseUrl: string): string | null {
  if (kind === 'anthropic' && /\/v1$/.test(baseUrl)) return 'an anthropic base URL ends before /v1 (e.g. https://api.anthropic.com)'
  if (kind === 'gemini' && /\/v1(beta)?$/.test(baseUrl)) return 'a gemini base URL ends before /v1beta (e.g. https://generativelanguage.googleapis.com)'
  return null
}

export const addProviderBody = z
  .object({
    kind: z.enum(providerKinds),
    base_url: providerBaseUrlSchema,
    /** Sealed at once; answered and listed only as its masked tail. */
    key: z.string().trim().min(8, 'the key looks too short').max(512),
    models: modelPatternListSchema,
    model_map: modelMapListSchema.optional(),
    priority: providerPrioritySchema.default(0),
  })
  .superRefine((body, ctx) => {
    const problem = baseUrlProblem(body.kind, body.base_url)
    if (problem) ctx.addIssue({ code: 'custom', path: ['base_url'], message: problem })
  })

export const updateProviderBody = z.object({ models: modelPatternListSchema.optional(), model_map: modelMapListSchema.optional(), priority: providerPrioritySchema.optional() })
export const providerEnabledBody = z.object({ enabled: z.boolean() })
export const testProviderBody = z.object({
  /** The model to ask; default: the provider's first pattern without `*`, else the first priced model it serves. */
  model: z.string().trim().min(1).max(128).optional(),
})
export const providerTestSchema = z
  .object({
    ok: z.boolean(),
    /** The provider's HTTP status; null when no answer came (connection refused, timeout). */
    status: z.int().nullable(),
    latency_ms: z.int(),
    model: z.string(),
    /** Why it failed, without anything the provider echoed (it may name the key). */
    error: z.string().nullable(),
  })
  .meta({ id: 'ProviderTest' })
export type ProviderTest = z.output<typeof providerTestSchema>
export const adminProviderListSchema = z.object({ items: z.array(adminProviderSchema) }).meta({ id: 'AdminProviderList' })
export const providerStates = ['enabled', 'disabled'] as const
export const adminProvidersQuery = z.object({ kind: z.enum(providerKinds).optional(), state: z.enum(providerStates).optional() })
export const setProvidersEnabledBody = z.object({ ids: bulkRows(idSchema), enabled: z.boolean() })

/* ---------- Prices ---------- */

const rate = z.int().min(0).max(10_000_000)

/** A model's price as `model-cost set` and the console set it (docs/decisions/080-prices.md). */
export const modelCostInputSchema = z
  .object({
    model: z.string().trim().min(1).max(128),
    kind: z.enum(modelCostKinds),
    points_per_call: z.int().min(0).max(1_000_000).nullable().default(null),
    input_points_per_mtok: rate.nullable().default(null),
    output_points_per_mtok: rate.nullable().default(null),
    cache_read_points_per_mtok: rate.nullable().default(null),
    cache_write_points_per_mtok: rate.nullable().default(null),
    cache_write_1h_points_per_mtok: rate.nullable().default(null),
    web_search_points: z.int().min(0).max(1_000_000).nullable().default(null),
    long_context_threshold: z.int().min(1).max(100_000_000).nullable().default(null),
    long_context_input_percent: z.int().min(1).max(10_000).nullable().default(null),
    long_context_output_percent: z.int().min(1).max(10_000).nullable().default(null),
    description: z.string().trim().max(255).nullable().default(null),
  })
  .refine((c) => /^[A-Za-z0-9._:/@*[\]-]+$/.test(c.model), { message: 'model: letters, digits, . _ : / @ - [ ], and * for any characters', path: ['model'] })
  .refine((c) => (c.kind === 'fixed' ? c.points_per_call !== null : c.input_points_per_mtok !== null && c.output_points_per_mtok !== null), {
    message: 'fixed needs points_per_call; variable needs input and output rates',
  })
  .refine((c) => (c.long_context_threshold === null) === (c.long_context_input_percent === null && c.long_context_output_percent === null), {
    message: 'a long-context threshold needs its input and/or output percentages, and they need the threshold',
  })
  .transform((c) =>
    c.kind === 'fixed'
      ? {
          ...c,
          input_points_per_mtok: null,
          output_points_per_mtok: null,
          cache_read_points_per_mtok: null,
          cache_write_points_per_mtok: null,
          cache_write_1h_points_per_mtok: null,
          web_search_points: null,
          long_context_threshold: null,
          long_context_input_percent: null,
          long_context_output_percent: null,
        }
      : { ...c, points_per_call: null },
  )
export type ModelCostInput = z.input<typeof modelCostInputSchema>

/**
 * The call each price row is shown for: a Claude Code turn reads a sizeable prompt and writes a
 * short answer. Only an illustration beside the rates; billing uses each call's own usage.
 */
export const typicalCall = { input_tokens: 20_000, output_tokens: 1_000 } as const

export const adminPriceSchema = modelCostSchema
  .extend({
    /** A pattern (`claude-opus-*`, `*`) rather than one model. */
    pattern: z.boolean(),
    /** Points the typical call (`typicalCall`) costs at this price. */
    typical_points: z.int(),
  })
  .meta({ id: 'AdminPrice' })
export type AdminPrice = z.output<typeof adminPriceSchema>
export const adminPriceListSchema = z
  .object({ items: z.array(adminPriceSchema), typical: z.object({ input_tokens: z.int(), output_tokens: z.int() }) })
  .meta({ id: 'AdminPriceList' })
const priceModel = z.string().trim().min(1).max(128)
export const removePriceBody = z.object({ model: priceModel })
/** Part of a model name or pattern (any case). */
export const adminPricesQuery = z.object({ q: z.string().trim().max(128).optional() })
export const removePricesBody = z.object({ models: bulkRows(priceModel) })

/* ---------- Ticket assignment ---------- */

export const operatorsSchema = z.object({ items: z.array(z.object({ id: idSchema, username: z.string() })) }).meta({ id: 'Operators' })
/** null: nobody. */
export const assignTicketBody = z.object({ assignee_id: idSchema.nullable() })

const tag = 'admin'

export const adminOpsEndpoints = {
  reconciliation: endpoint({
    method: 'get',
    path: '/api/admin/reconciliation',
    summary: "A month's usage per model and provider: the points charged, and what it costs at the providers' list prices",
    description: 'Read from hourly aggregates kept in the background: calls of the last few minutes are not counted yet.',
    tag,
    auth: 'admin',
    query: reconciliationQuery,
    response: reconciliationSchema,
  }),
  listPrices: endpoint({
    method: 'get',
    path: '/api/admin/list-prices',
    summary: "The providers' list prices the price page and the reconciliation compare with, the day they were read and that day's exchange rate",
    tag,
    auth: 'admin',
    response: adminListPricesSchema,
  }),
  setListPrices: endpoint({
    method: 'post',
    path: '/api/admin/list-prices',
    summary: "Replace the list prices, their day and the exchange rate at once (a new read of the providers' pages)",
    tag,
    auth: 'admin',
    body: adminListPricesSchema,
    response: adminListPricesSchema,
  }),
  overview: endpoint({
    method: 'get',
    path: '/api/admin/overview',
    summary: 'Calls, points, active users and keys, errors and latency over 24 hours, 7 or 30 days, by model and provider; open tickets; providers',
    description: 'Read from hourly aggregates kept in the background (docs/decisions/120-figures-from-hourly-aggregates.md): calls of the last few minutes are not counted yet.',
    tag,
    auth: 'admin',
    query: overviewQuery,
    response: overviewSchema,
  }),
  overviewSeries: endpoint({
    method: 'get',
    path: '/api/admin/overview/series',
    summary: 'Calls, failures, points and tokens per hour (24 hours) or per day (7 or 30 days), of one model or provider or all',
    description: 'The same hourly aggregates as the overview, so the buckets add up to its figures.',
    tag,
    auth: 'admin',
    query: overviewSeriesQuery,
    response: overviewSeriesSchema,
  }),
  providers: endpoint({
    method: 'get',
    path: '/api/admin/providers',
    summary: 'Upstream providers with their circuit state and the last 24 hours of their calls, of a kind or state',
    tag,
    auth: 'admin',
    query: adminProvidersQuery,
    response: adminProviderListSchema,
  }),
  addProvider: endpoint({
    method: 'post',
    path: '/api/admin/providers',
    summary: 'Add an upstream provider; its key is stored sealed and never shown again',
    tag,
    auth: 'admin',
    body: addProviderBody,
    response: adminProviderSchema,
    idempotent: true,
  }),
  updateProvider: endpoint({
    method: 'post',
    path: '/api/admin/providers/{id}',
    summary: "Change a provider's priority or model patterns",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: updateProviderBody,
    response: adminProviderSchema,
    errors: ['not_found'],
  }),
  setProviderEnabled: endpoint({
    method: 'post',
    path: '/api/admin/providers/{id}/enabled',
    summary: 'Send calls to a provider again, or stop (calls in flight finish)',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: providerEnabledBody,
    response: adminProviderSchema,
    errors: ['not_found'],
  }),
  setProvidersEnabled: endpoint({
    method: 'post',
    path: '/api/admin/providers/bulk-enabled',
    summary: 'Send calls to several providers again, or stop',
    description: 'Providers already in the state asked are left alone and not counted. An unknown id refuses the whole request.',
    tag,
    auth: 'admin',
    body: setProvidersEnabledBody,
    response: bulkChangedSchema,
    errors: ['not_found'],
  }),
  removeProvider: endpoint({
    method: 'delete',
    path: '/api/admin/providers/{id}',
    summary: 'Remove a provider: calls stop reaching it at once; its calls stay on record',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: z.object({ id: idSchema }),
    errors: ['not_found'],
  }),
  testProvider: endpoint({
    method: 'post',
    path: '/api/admin/providers/{id}/test',
    summary: 'Send the provider one minimal call (one output token) and say how it answered',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: testProviderBody,
    response: providerTestSchema,
    errors: ['not_found', 'business_rule'],
  }),
  prices: endpoint({
    method: 'get',
    path: '/api/admin/prices',
    summary: 'Model prices and patterns (those containing `q`), with what a typical call costs at each',
    tag,
    auth: 'admin',
    query: adminPricesQuery,
    response: adminPriceListSchema,
  }),
  setPrice: endpoint({
    method: 'post',
    path: '/api/admin/prices',
    summary: "Create or replace a model's or pattern's price",
    tag,
    auth: 'admin',
    body: modelCostInputSchema,
    response: adminPriceSchema,
    idempotent: true,
  }),
  removePrice: endpoint({
    method: 'post',
    path: '/api/admin/prices/remove',
    summary: "Remove a model's or pattern's price: running relays refuse the model within seconds",
    tag,
    auth: 'admin',
    body: removePriceBody,
    response: z.object({ model: z.string() }),
    errors: ['not_found'],
  }),
  removePrices: endpoint({
    method: 'post',
    path: '/api/admin/prices/bulk-remove',
    summary: 'Remove several prices at once',
    description: 'A model without a price (removed already) is left alone and not counted.',
    tag,
    auth: 'admin',
    body: removePricesBody,
    response: bulkChangedSchema,
  }),
  operators: endpoint({
    method: 'get',
    path: '/api/admin/operators',
    summary: 'Users of type admin, whom tickets can be assigned to',
    tag,
    auth: 'admin',
    response: operatorsSchema,
  }),
  assignTicket: endpoint({
    method: 'post',
    path: '/api/admin/tickets/{id}/assignee',
    summary: 'Assign a ticket to an operator (who then signs its replies), or to nobody',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: assignTicketBody,
    response: z.object({ assignee_id: idSchema.nullable(), assignee_name: z.string().nullable() }),
    errors: ['not_found', 'business_rule'],
  }),
}
