/** The signed-in user's referral programme: stats with the configured rule, and their invitees. */
import { referralEndpoints } from '../contract/referral.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { referralRecords, referralStats } from './service.ts'

export function referralRoutes({ db }: RelayServices): Route[] {
  return [
    defineRoute(referralEndpoints.stats, async ({ user }) => referralStats(db, user)),

    defineRoute(referralEndpoints.records, async ({ user, query }) => referralRecords(db, user.id, query)),
  ]
}
