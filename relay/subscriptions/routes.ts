/** Redeem codes and the subscription history. */
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { subscriptionHistory } from './history.ts'
import { checkRedeemCode, redeemCode } from './redeem-codes.ts'

export function subscriptionRoutes(services: RelayServices): Route[] {
  const { db, clock } = services
  return [
    defineRoute(subscriptionEndpoints.validateRedeemCode, async ({ user, body, lang }) => checkRedeemCode(services, user.id, body.redeem_code, lang)),
    defineRoute(subscriptionEndpoints.redeemCode, async ({ user, body, lang }) => redeemCode(services, user.id, body.redeem_code, lang)),
    defineRoute(subscriptionEndpoints.history, async ({ user, query, lang }) => subscriptionHistory(db, user.id, query, clock.now(), lang)),
  ]
}
