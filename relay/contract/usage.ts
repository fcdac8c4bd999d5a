/**
 * The usage log (docs/decisions/111-bounded-history-reads.md): one row per metered call of the caller, newest first, with
 * filters, paged by a keyset cursor (not `page`: the log grows at its head while it is read, and a
 * deep page must cost what the first does), and the same rows as a streamed CSV download.
 */
import { z } from 'zod'
import { idDigits } from './ids.ts'
import { idSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { idPathParams } from './paths.ts'
import { pointsEntryTypes } from './points.ts'

/** How a call ended, as its owner reads it. */
export const callOutcomes = ['answered', 'refused', 'failed', 'abandoned'] as const
export type CallOutcomeName = (typeof callOutcomes)[number]

export const usageLogBounds = { pageSize: { default: 50, max: 100 }, model: { max: 128 } } as const

/** `{create_timestamp}_{id}` of the last row of a page: the next page starts after it. */
export const usageCursorPattern = new RegExp(`^(\\d{1,15})_(${idDigits.source})$`)

/** Filters of both calls; `from` inclusive, `to` exclusive, epoch milliseconds. */
export const usageFilterQuery = z.object({
  key_id: idSchema.optional(),
  model: z.string().trim().min(1).max(usageLogBounds.model.max).optional(),
  outcome: z.enum(callOutcomes).optional(),
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
})
export type UsageFilter = z.output<typeof usageFilterQuery>

export const usageCallsQuery = usageFilterQuery.extend({
  cursor: z.string().regex(usageCursorPattern).optional(),
  pageSize: z.coerce.number().int().min(1).max(usageLogBounds.pageSize.max).default(usageLogBounds.pageSize.default),
})

/** What a line of a charge is for: tokens by kind (rates per million), searches or the call (points each). */
export const chargeItems = ['call', 'input', 'cache_read', 'cache_write_5m', 'cache_write_1h', 'output', 'web_search'] as const

export const usageCallSchema = z
  .object({
    /** The relay's id of the call: what to quote in a ticket. */
    id: idSchema,
    create_timestamp: timestampSchema,
    /** Null for a call made with an OAuth token (then `client_id`). */
    key_id: idSchema.nullable(),
    key_name: z.string().nullable(),
    client_id: z.string().nullable(),
    api: z.enum(['anthropic', 'openai', 'responses', 'gemini']),
    model: z.string(),
    streamed: z.boolean(),
    outcome: z.enum(callOutcomes),
    /** The HTTP status the client got. */
    status: z.int(),
    /** The relay's reason when it refused the call itself, else null. */
    refusal: z.string().nullable(),
    input_tokens: z.int(),
    output_tokens: z.int(),
    cache_read_tokens: z.int(),
    /** 5-minute cache writes. */
    cache_write_tokens: z.int(),
    cache_write_1h_tokens: z.int(),
    web_search_requests: z.int(),
    points: z.int(),
    shortfall_points: z.int(),
    /**
     * How the call was charged, line by line, at the prices of its day (docs/pricing.md); null when
     * nothing was charged for (no answer) or for calls recorded before itemised charges.
     */
    charge: z
      .object({
        price: z.string(),
        long_context: z.object({ threshold: z.int(), input_percent: z.int(), output_percent: z.int() }).nullable(),
        lines: z.array(z.object({ item: z.enum(chargeItems), quantity: z.int(), rate: z.int(), percent: z.int(), points: z.number() })),
        points: z.int(),
      })
      .nullable(),
    duration_ms: z.int(),
    first_byte_ms: z.int().nullable(),
  })
  .meta({ id: 'UsageCall' })
export type UsageCall = z.infer<typeof usageCallSchema>

export const usageCallsSchema = z
  .object({
    items: z.array(usageCallSchema),
    /** Pass as `cursor` for the next (older) page; null on the last one. */
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'UsageCalls' })
export type UsageCalls = z.infer<typeof usageCallsSchema>

/** One call and the points rows it wrote (its hold's frozen, unfrozen and consumed rows), oldest first. */
export const usageCallDetailSchema = z
  .object({
    call: usageCallSchema,
    entries: z.array(
      z.object({
        id: idSchema,
        type: z.enum(pointsEntryTypes),
        change: z.int(),
        balance_after: z.int(),
        create_timestamp: timestampSchema,
      }),
    ),
  })
  .meta({ id: 'UsageCallDetail' })
export type UsageCallDetail = z.infer<typeof usageCallDetailSchema>

const tag = 'usage'

export const usageEndpoints = {
  calls: endpoint({
    method: 'get',
    path: '/api/user/usage/calls',
    summary: "The caller's calls, newest first",
    description:
      'One row per metered call (answered, refused, failed or abandoned), filtered by key, model, outcome and time (`from` inclusive, `to` exclusive, epoch ms); paged by `cursor`, the `next_cursor` of the previous page.',
    tag,
    auth: 'user',
    scope: 'billing',
    query: usageCallsQuery,
    response: usageCallsSchema,
  }),
  call: endpoint({
    method: 'get',
    path: '/api/user/usage/calls/{id}',
    summary: "One of the caller's calls and the points rows it wrote",
    description: 'The rows are the hold of a charged call: frozen, unfrozen and consumed, oldest first; none for a free or refused call.',
    tag,
    auth: 'user',
    scope: 'billing',
    params: idPathParams,
    response: usageCallDetailSchema,
    errors: ['not_found'],
  }),
  /** The same filters, every matching row, as CSV: streamed, outside the envelope. */
  export: endpoint({
    method: 'get',
    path: '/api/user/usage/calls.csv',
    summary: "The caller's calls as CSV",
    description: 'Every call matching the filters (as for the log), newest first, streamed; times in UTC.',
    tag,
    auth: 'user',
    scope: 'billing',
    query: usageFilterQuery,
    response: z.string(),
    download: 'text/csv',
  }),
}
