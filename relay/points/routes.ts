/** The caller's points: balance, history, daily use, model costs, and the reset request. */
import { pointsEndpoints } from '../contract/points.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { pointsHistory } from './history.ts'
import { listModelCosts } from './model-costs.ts'
import { requestPointsReset } from './reset.ts'
import { pointsSummary } from './summary.ts'
import { weeklyUsage } from './weekly-usage.ts'

export function pointsRoutes(services: RelayServices): Route[] {
  const { db, clock } = services
  return [
    defineRoute(pointsEndpoints.points, async ({ user, lang }) => pointsSummary(db, user.id, clock.now(), lang)),
    defineRoute(pointsEndpoints.history, async ({ user, query }) => pointsHistory(db, user.id, query)),
    defineRoute(pointsEndpoints.weeklyUsage, async ({ user }) => weeklyUsage(db, user.id, clock.now())),
    defineRoute(pointsEndpoints.modelCosts, async () => ({ items: await listModelCosts(db) })),
    defineRoute(pointsEndpoints.resetTicket, async ({ user, body }) => requestPointsReset(services, user.id, body)),
  ]
}
