/** The calls (relay/contract/oauth.ts) under /api/oauth/internal/ (docs/oauth.md walks a client through them). */
import { deviceCodeGrantType, oauthEndpoints } from '../contract/oauth.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { decideCodeRequest, exchangeCode } from './authorization-codes.ts'
import { authenticateClient, findClient, requestedScopes, requireRegisteredRedirect } from './clients.ts'
import { checkDeviceCode, decideDeviceCode, pollDeviceCode, startDeviceAuthorization } from './device-codes.ts'
import { oauthLimits } from './rate-limits.ts'
import { introspectToken, refreshClientTokens } from './tokens.ts'

export function oauthRoutes(services: RelayServices): Route[] {
  const { db, limiter } = services
  return [
    defineRoute(oauthEndpoints.client, async ({ query }) => {
      const client = await findClient(db, query.client_id)
      if (query.redirect_uri !== undefined) requireRegisteredRedirect(client, query.redirect_uri)
      return {
        client_id: client.clientId,
        name: client.name,
        first_party: client.firstParty,
        scopes: requestedScopes(query.scope),
        grant_days: services.config.sessionLifetimeDays,
      }
    }),

    defineRoute(oauthEndpoints.authorize, async ({ body, user }) => {
      if ('device_code' in body) {
        await decideDeviceCode(services, user, body.device_code, body.decision)
        return { redirect_to: null }
      }
      return { redirect_to: await decideCodeRequest(services, user, body) }
    }),

    defineRoute(oauthEndpoints.token, async ({ body }) => {
      switch (body.grant_type) {
        case 'authorization_code':
          return exchangeCode(services, await authenticateClient(db, body.client_id, body.client_secret), body)
        case 'refresh_token':
          return refreshClientTokens(services, await authenticateClient(db, body.client_id, body.client_secret), body.refresh_token)
        case deviceCodeGrantType: {
          const client = body.client_secret
            ? await authenticateClient(db, body.client_id, body.client_secret)
            : await findClient(db, body.client_id)
          return pollDeviceCode(services, client, body.device_secret)
        }
      }
    }),

    defineRoute(oauthEndpoints.deviceCode, async ({ query, clientIp }) => {
      await limiter.enforce(oauthLimits.deviceStartPerIp, clientIp)
      return startDeviceAuthorization(services, query.client_id, query.scope, clientIp)
    }),

    defineRoute(oauthEndpoints.verifyCode, async ({ body, user }) => checkDeviceCode(services, user, body.device_code)),

    defineRoute(oauthEndpoints.verifyToken, async ({ body }) => introspectToken(services, await authenticateClient(db, body.client_id, body.client_secret), body.token)),
  ]
}
