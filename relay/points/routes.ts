/** The caller's points: balance, history, daily use, model costs, and the reset request. */
import {
  modelCostListSchema,
  pointsHistoryQuery,
  pointsHistorySchema,
  pointsPaths,
  pointsSummarySchema,
  resetTicketBody,
  resetTicketResultSchema,
  weeklyUsageSchema,
} from '../contract/points.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { pointsHistory } from './history.ts'
import { listModelCosts } from './model-costs.ts'
import { requestPointsReset } from './reset.ts'
import { pointsSummary } from './summary.ts'
import { weeklyUsage } from './weekly-usage.ts'

const tag = 'points'

export function pointsRoutes(services: RelayServices): Route[] {
  const { db, clock } = services
  return [
    defineRoute({
      method: 'get',
      path: pointsPaths.points,
      summary: "The caller's points: balance, limit, use, frozen points, refill times, package",
      description: 'Hourly refills are computed on read: every whole hour since the last refill adds hour_points, up to the limit.',
      tag,
      auth: 'user',
      scope: 'billing',
      response: pointsSummarySchema,
      handler: async ({ user, lang }) => pointsSummary(db, user.id, clock.now(), lang),
    }),
    defineRoute({
      method: 'get',
      path: pointsPaths.history,
      summary: "The caller's points history, newest first",
      description: "Their own rows, and their team pool's refills and expiry since they joined. `change` is signed.",
      tag,
      auth: 'user',
      scope: 'billing',
      query: pointsHistoryQuery,
      response: pointsHistorySchema,
      handler: async ({ user, query }) => pointsHistory(db, user.id, query),
    }),
    defineRoute({
      method: 'get',
      path: pointsPaths.weeklyUsage,
      summary: 'Points the caller consumed per day, the last 10 days',
      description: 'Calendar days in UTC+8 (Asia/Shanghai), oldest first, today last.',
      tag,
      auth: 'user',
      scope: 'billing',
      response: weeklyUsageSchema,
      handler: async ({ user }) => weeklyUsage(db, user.id, clock.now()),
    }),
    defineRoute({
      method: 'get',
      path: pointsPaths.modelCosts,
      summary: 'What a call costs per model',
      description: '`fixed`: points per call. `variable`: points per million tokens; a null cache rate bills cached tokens as input.',
      tag,
      auth: 'user',
      scope: 'billing',
      response: modelCostListSchema,
      handler: async () => ({ items: await listModelCosts(db) }),
    }),
    defineRoute({
      method: 'post',
      path: pointsPaths.resetTicket,
      summary: 'Ask for a points reset',
      description:
        'Creates a pointsReset ticket. Approved at once (balance topped up to the limit, ticket completed) when a personal package is in force and the last reset is old enough; else pending for an operator.',
      tag,
      auth: 'user',
      scope: 'billing',
      body: resetTicketBody,
      response: resetTicketResultSchema,
      errors: ['reset_already_pending', 'reset_not_needed'],
      idempotent: true,
      handler: async ({ user, body }) => requestPointsReset(services, user.id, body),
    }),
  ]
}
