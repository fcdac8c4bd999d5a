/** Redeem codes and the subscription history. */
import { pointsPaths, redeemCodeBody, redeemCodeCheckSchema, redeemResultSchema, subscriptionHistoryQuery, subscriptionHistorySchema } from '../contract/points.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { subscriptionHistory } from './history.ts'
import { checkRedeemCode, redeemCode } from './redeem-codes.ts'

const tag = 'subscriptions'

export function subscriptionRoutes(services: RelayServices): Route[] {
  const { db, clock } = services
  return [
    defineRoute({
      method: 'post',
      path: pointsPaths.validateRedeemCode,
      summary: 'Check a redeem code and show its package',
      description: 'Uses nothing up. `replaces_active` warns that redeeming ends the package in force at once.',
      tag,
      auth: 'user',
      scope: 'billing',
      body: redeemCodeBody,
      response: redeemCodeCheckSchema,
      errors: ['redeem_code_invalid', 'redeem_in_team', 'rate_limited'],
      handler: async ({ user, body, lang }) => checkRedeemCode(services, user.id, body.redeem_code, lang),
    }),
    defineRoute({
      method: 'post',
      path: pointsPaths.redeemCode,
      summary: 'Redeem a code: its package starts now',
      description: 'A package in force ends at once and its remaining points expire. Each code works once.',
      tag,
      auth: 'user',
      scope: 'billing',
      body: redeemCodeBody,
      response: redeemResultSchema,
      errors: ['redeem_code_invalid', 'redeem_in_team', 'rate_limited'],
      idempotent: true,
      handler: async ({ user, body, lang }) => redeemCode(services, user.id, body.redeem_code, lang),
    }),
    defineRoute({
      method: 'get',
      path: pointsPaths.subscriptionHistory,
      summary: "What happened to the caller's subscriptions, newest first",
      tag,
      auth: 'user',
      scope: 'billing',
      query: subscriptionHistoryQuery,
      response: subscriptionHistorySchema,
      handler: async ({ user, query, lang }) => subscriptionHistory(db, user.id, query, clock.now(), lang),
    }),
  ]
}
