/** Redeem codes and the subscription history. */
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { subscriptionHistory } from './history.ts'
import { checkRedeemCode, redeemCode } from './redeem-codes.ts'

export function subscriptionRoutes(services: RelayServices): Route[] {
  const { db, clock } = services
  return [
    defineRoute(subscriptionEndpoints.validateRedeemCode, async ({ user, body, lang, clientIp }) => checkRedeemCode(services, { userId: user.id, clientIp }, body.redeem_code, lang)),
    defineRoute(subscriptionEndpoints.redeemCode, async ({ user, body, lang, clientIp }) => redeemCode(services, { userId: user.id, clientIp }, body.redeem_code, lang)),
    defineRoute(subscriptionEndpoints.history, async ({ user, query, lang }) => subscriptionHistory(db, user.id, query, clock.now(), lang)),
  ]
}
