/** The caller's usage log and its CSV export (usage/log.ts, docs/decisions/111). */
import { z } from 'zod'
import { idPathParams } from '../contract/paths.ts'
import { usageCallDetailSchema, usageCallsQuery, usageCallsSchema, usageFilterQuery, usagePaths } from '../contract/usage.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { usageCallDetail, usageCalls, usageCsv } from './log.ts'

const tag = 'usage'

export function usageRoutes({ db, clock }: RelayServices): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: usagePaths.calls,
      summary: "The caller's calls, newest first",
      description:
        'One row per metered call (answered, refused, failed or abandoned), filtered by key, model, outcome and time (`from` inclusive, `to` exclusive, epoch ms); paged by `cursor`, the `next_cursor` of the previous page.',
      tag,
      auth: 'user',
      scope: 'billing',
      query: usageCallsQuery,
      response: usageCallsSchema,
      handler: async ({ user, query }) => {
        const { cursor, pageSize, ...filter } = query
        return usageCalls(db, user.id, filter, cursor, pageSize)
      },
    }),

    defineRoute({
      method: 'get',
      path: usagePaths.call,
      summary: 'One of the caller\'s calls and the points rows it wrote',
      description: 'The rows are the hold of a variable-cost call: frozen, unfrozen and consumed, oldest first; none for a fixed-price or refused call.',
      tag,
      auth: 'user',
      scope: 'billing',
      params: idPathParams,
      response: usageCallDetailSchema,
      errors: ['not_found'],
      handler: async ({ user, params }) => usageCallDetail(db, user.id, params.id),
    }),

    defineRoute({
      method: 'get',
      path: usagePaths.export,
      summary: "The caller's calls as CSV",
      description: 'Every call matching the filters (as for the log), newest first, streamed; times in UTC.',
      tag,
      auth: 'user',
      scope: 'billing',
      query: usageFilterQuery,
      response: z.string(),
      download: 'text/csv',
      handler: async ({ user, query }) => {
        const day = new Date(clock.now()).toISOString().slice(0, 10)
        return new Response(usageCsv(db, user.id, query), {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="usage-${day}.csv"`,
            'cache-control': 'no-store',
          },
        })
      },
    }),
  ]
}
