/** The signed-in user's referral programme: stats with the configured rule, and their invitees. */
import { referralPaths, referralRecordsQuery, referralRecordsSchema, referralStatsSchema } from '../contract/referral.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { referralRecords, referralStats } from './service.ts'

const tag = 'referral'

export function referralRoutes({ db }: RelayServices): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: referralPaths.stats,
      summary: 'Invites, rewards earned, the invite code and the reward rule',
      tag,
      auth: 'user',
      scope: 'billing',
      response: referralStatsSchema,
      handler: async ({ user }) => referralStats(db, user),
    }),

    defineRoute({
      method: 'get',
      path: referralPaths.records,
      summary: "The caller's invitees (usernames masked), newest first",
      description: '`status` is rewarded once the invitee has redeemed a paid package.',
      tag,
      auth: 'user',
      scope: 'billing',
      query: referralRecordsQuery,
      response: referralRecordsSchema,
      handler: async ({ user, query }) => referralRecords(db, user.id, query),
    }),
  ]
}
