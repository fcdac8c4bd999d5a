/** API keys of the signed-in user, and the key-authenticated usage call for CLI status bars. */
import { apiKeyBounds, apiKeyEndpoints } from '../contract/api-keys.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { pointsSummary } from '../points/summary.ts'
import { findUserById } from '../users/users.ts'
import { apiCaller } from '../oauth/api-caller.ts'
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyLimits } from './service.ts'

export function apiKeyRoutes(services: RelayServices): Route[] {
  const { db, clock } = services

  return [
    defineRoute(apiKeyEndpoints.list, async ({ user }) => ({
      items: await listApiKeys(db, user.id, clock.now(), services.config.staleHoldMinutes),
      limit: apiKeyBounds.perUser,
    })),

    defineRoute(apiKeyEndpoints.limits, async ({ user, params, body }) => setApiKeyLimits(db, clock, user.id, params.id, body)),

    defineRoute(apiKeyEndpoints.create, async ({ user, body }) => createApiKey(db, clock, user.id, body.name)),

    defineRoute(apiKeyEndpoints.delete, async ({ user, params }) => {
      await deleteApiKey(db, clock, user.id, params.id)
      return { id: params.id }
    }),

    defineRoute(apiKeyEndpoints.usage, async ({ c, lang }) => {
      const identity = await apiCaller(c, services)
      const [user, keyRow, summary] = await Promise.all([
        findUserById(db, identity.userId),
        identity.keyId === null ? null : db.selectFrom('api_keys').select('name').where('id', '=', identity.keyId).executeTakeFirst(),
        // Polled by status lines: nothing here may grow with the user's calls (docs/decisions/111-bounded-history-reads.md).
        pointsSummary(db, identity.userId, clock.now(), lang, { used: false }),
      ])
      if (!user || (identity.keyId !== null && !keyRow)) throw new RelayError('unauthenticated')
      const pkg = summary.package
      return {
        key: identity.keyId !== null && keyRow ? { id: identity.keyId, name: keyRow.name } : null,
        client_id: identity.clientId,
        user: { username: user.username, user_type: user.user_type },
        points: pkg
          ? {
              balance: summary.balance,
              limit: summary.points_limit,
              hour_points: summary.hour_points,
              next_refill_timestamp: summary.next_refill_timestamp,
              forecast: summary.forecast,
            }
          : null,
        subscription: pkg ? { status: summary.status, package_name: pkg.name, end_timestamp: summary.end_timestamp } : null,
      }
    }),
  ]
}
