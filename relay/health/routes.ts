/** Liveness with a database round trip, for the portal's health route and load balancers. */
import { sql } from 'kysely'
import { healthEndpoints } from '../contract/health.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'

export function healthRoutes({ db }: RelayServices): Route[] {
  return [
    defineRoute(healthEndpoints.health, async () => {
      await sql`select 1`.execute(db)
      return { status: 'ok' as const }
    }),
  ]
}
