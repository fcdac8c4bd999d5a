/**
 * The operators' call log (docs/console.md, "Calls"): every recorded call of every user, newest
 * first, filtered by user, key, model, provider, outcome, time and request id; paged by the same
 * keyset cursor as a user's usage log (docs/decisions/111-bounded-history-reads.md); one call with
 * its points rows; the same rows as a streamed CSV. `auth: 'admin'` under `/api/admin`, like admin.ts.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { idPathParams } from './paths.ts'
import { callOutcomes, usageCallDetailSchema, usageCallSchema, usageCursorPattern, usageLogBounds } from './usage.ts'

/** Filters of the list and its CSV; `from` inclusive, `to` exclusive, epoch milliseconds. */
export const adminCallsFilterQuery = z.object({
  /** A user's id, or their username (any case). */
  user: z.string().trim().min(1).max(64).optional(),
  key_id: idSchema.optional(),
  model: z.string().trim().min(1).max(usageLogBounds.model.max).optional(),
  provider_id: idSchema.optional(),
  outcome: z.enum(callOutcomes).optional(),
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  /** The id the client got in `x-relay-request-id` and at the end of a refusal's message. */
  request_id: idSchema.optional(),
})
export type AdminCallsFilter = z.output<typeof adminCallsFilterQuery>

export const adminCallsQuery = adminCallsFilterQuery.extend({
  cursor: z.string().regex(usageCursorPattern).optional(),
  pageSize: z.coerce.number().int().min(1).max(usageLogBounds.pageSize.max).default(usageLogBounds.pageSize.default),
})

/** A call as its owner's log shows it, with who made it and what the relay did with it. */
export const adminCallSchema = usageCallSchema
  .extend({
    user_id: idSchema,
    username: z.string(),
    /** The provider that answered, or the last one tried; null when none was asked. */
    provider_id: idSchema.nullable(),
    /** `kind · host` of that provider; null when none was asked or it was removed since. */
    provider: z.string().nullable(),
    /** The model name the provider was asked for, when its mapping changed it. */
    upstream_model: z.string().nullable(),
    client_ip: z.string(),
    /** Time the relay spent before forwarding, the client's upload excluded; null for calls recorded before it was kept. */
    relay_ms: z.int().nullable(),
  })
  .meta({ id: 'AdminCall' })
export type AdminCall = z.output<typeof adminCallSchema>

export const adminCallsSchema = z
  .object({
    items: z.array(adminCallSchema),
    /** Pass as `cursor` for the next (older) page; null on the last one. */
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'AdminCalls' })
export type AdminCalls = z.output<typeof adminCallsSchema>

export const adminCallDetailSchema = usageCallDetailSchema.extend({ call: adminCallSchema }).meta({ id: 'AdminCallDetail' })
export type AdminCallDetail = z.output<typeof adminCallDetailSchema>

const tag = 'admin'

export const adminCallEndpoints = {
  calls: endpoint({
    method: 'get',
    path: '/api/admin/calls',
    summary: "Every user's calls, newest first, filtered by user, key, model, provider, outcome, time and request id",
    description: 'One row per recorded call, refusals included; paged by `cursor`, the `next_cursor` of the previous page.',
    tag,
    auth: 'admin',
    query: adminCallsQuery,
    response: adminCallsSchema,
  }),
  call: endpoint({
    method: 'get',
    path: '/api/admin/calls/{id}',
    summary: 'One call by its request id, with the points rows it wrote',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: adminCallDetailSchema,
    errors: ['not_found'],
  }),
  exportCalls: endpoint({
    method: 'get',
    path: '/api/admin/calls.csv',
    summary: "Every user's calls matching the filters, as CSV",
    description: 'The filters of the list, every matching row newest first, streamed; times in UTC.',
    tag,
    auth: 'admin',
    query: adminCallsFilterQuery,
    response: z.string(),
    download: 'text/csv',
  }),
}
