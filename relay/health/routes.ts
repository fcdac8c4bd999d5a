/** Liveness with a database round trip, for the portal's health route and load balancers. */
import { sql } from 'kysely'
import { z } from 'zod'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'

export function healthRoutes({ db }: RelayServices): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/health',
      summary: 'The relay answers and reaches its database',
      tag: 'health',
      auth: 'none',
      response: z.object({ status: z.literal('ok') }),
      handler: async () => {
        await sql`select 1`.execute(db)
        return { status: 'ok' as const }
      },
    }),
  ]
}
