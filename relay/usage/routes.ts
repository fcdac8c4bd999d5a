/** The caller's usage log and its CSV export (usage/log.ts, docs/decisions/111-bounded-history-reads.md). */
import { usageEndpoints } from '../contract/usage.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { usageCallDetail, usageCalls, usageCsv } from './log.ts'

export function usageRoutes({ db, clock }: RelayServices): Route[] {
  return [
    defineRoute(usageEndpoints.calls, async ({ user, query }) => {
      const { cursor, pageSize, ...filter } = query
      return usageCalls(db, user.id, filter, cursor, pageSize)
    }),

    defineRoute(usageEndpoints.call, async ({ user, params }) => usageCallDetail(db, user.id, params.id)),

    defineRoute(usageEndpoints.export, async ({ user, query }) => {
      const day = new Date(clock.now()).toISOString().slice(0, 10)
      return new Response(usageCsv(db, user.id, query), {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="usage-${day}.csv"`,
          'cache-control': 'no-store',
        },
      })
    }),
  ]
}
