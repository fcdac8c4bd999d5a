/**
 * Liveness with a database round trip, for the portal's health route and load balancers. A relay
 * draining before it stops answers 503, so a load balancer sends it nothing new
 * (proxy/calls-in-flight.ts).
 */
import { sql } from 'kysely'
import { healthEndpoints } from '../contract/health.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'

export function healthRoutes({ db, calls }: RelayServices): Route[] {
  return [
    defineRoute(healthEndpoints.health, async () => {
      if (calls.draining) throw new RelayError('unavailable', 'This relay is stopping: it finishes the calls in flight and takes no new ones.')
      await sql`select 1`.execute(db)
      return { status: 'ok' as const }
    }),
  ]
}
