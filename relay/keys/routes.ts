/** API keys of the signed-in user, and the key-authenticated usage call for CLI status bars. */
import {
  apiKeyIdParams,
  apiKeyListSchema,
  apiKeyPaths,
  apiKeyBounds,
  createApiKeyBody,
  createdApiKeySchema,
  deletedApiKeySchema,
  apiKeySchema,
  setApiKeyLimitsBody,
  usageSchema,
} from '../contract/api-keys.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { pointsSummary } from '../points/summary.ts'
import { findUserById } from '../users/users.ts'
import { apiCaller } from '../oauth/api-caller.ts'
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyLimits } from './service.ts'

const tag = 'api-keys'

export function apiKeyRoutes(services: RelayServices): Route[] {
  const { db, clock } = services

  return [
    defineRoute({
      method: 'get',
      path: apiKeyPaths.list,
      summary: "The caller's API keys, masked",
      tag,
      auth: 'user',
      // Keys are credentials: only a portal login manages them, never a client's delegated token.
      scope: 'session',
      response: apiKeyListSchema,
      handler: async ({ user }) => ({ items: await listApiKeys(db, clock, user.id, services.config.staleHoldMinutes), limit: apiKeyBounds.perUser }),
    }),

    defineRoute({
      method: 'put',
      path: apiKeyPaths.limits,
      summary: "Set an API key's controls",
      description:
        'Every control at once: on/off, expiry, points quotas (total and per UTC+8 day), allowed models (`*` for any characters), requests per minute and calls at once; null removes a limit. The relay enforces them on the next call made with the key.',
      tag,
      auth: 'user',
      scope: 'session',
      params: apiKeyIdParams,
      body: setApiKeyLimitsBody,
      response: apiKeySchema,
      errors: ['not_found'],
      handler: async ({ user, params, body }) => setApiKeyLimits(db, clock, user.id, params.id, body),
    }),

    defineRoute({
      method: 'post',
      path: apiKeyPaths.create,
      summary: 'Create an API key',
      description: 'The reply holds the full key: it is never shown again (only its masked form).',
      tag,
      auth: 'user',
      scope: 'session',
      body: createApiKeyBody,
      response: createdApiKeySchema,
      errors: ['api_key_limit'],
      idempotent: true,
      handler: async ({ user, body }) => createApiKey(db, clock, user.id, body.name),
    }),

    defineRoute({
      method: 'delete',
      path: apiKeyPaths.delete,
      summary: 'Delete an API key',
      description: 'The key stops authenticating at once.',
      tag,
      auth: 'user',
      scope: 'session',
      params: apiKeyIdParams,
      response: deletedApiKeySchema,
      errors: ['not_found'],
      handler: async ({ user, params }) => {
        await deleteApiKey(db, clock, user.id, params.id)
        return { id: params.id }
      },
    }),

    defineRoute({
      method: 'get',
      path: apiKeyPaths.usage,
      summary: "The key owner's balance, for CLI status bars",
      description:
        'Authenticated by an API key (`x-api-key` or `Authorization: Bearer sk-relay-…`), or by an OAuth access token granted the `api` scope; not by a portal sign-in.',
      tag,
      auth: 'none',
      response: usageSchema,
      errors: ['unauthenticated', 'insufficient_scope'],
      handler: async ({ c, lang }) => {
        const identity = await apiCaller(c, services)
        const [user, keyRow, summary] = await Promise.all([
          findUserById(db, identity.userId),
          identity.keyId === null ? null : db.selectFrom('api_keys').select('name').where('id', '=', identity.keyId).executeTakeFirst(),
          pointsSummary(db, identity.userId, clock.now(), lang),
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
              }
            : null,
          subscription: pkg ? { status: summary.status, package_name: pkg.name, end_timestamp: summary.end_timestamp } : null,
        }
      },
    }),
  ]
}
