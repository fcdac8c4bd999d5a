/** The calls of docs/architecture.md §5.6 under /api/oauth/internal/ (docs/oauth.md walks a client through them). */
import {
  authorizeBody,
  authorizeResultSchema,
  clientInfoSchema,
  clientQuery,
  deviceAuthorizationSchema,
  deviceCodeCheckSchema,
  deviceCodeGrantType,
  deviceCodeQuery,
  oauthPaths,
  oauthTokensSchema,
  tokenBody,
  tokenIntrospectionSchema,
  verifyCodeBody,
  verifyTokenBody,
} from '../contract/oauth.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { decideCodeRequest, exchangeCode } from './authorization-codes.ts'
import { authenticateClient, findClient, requestedScopes, requireRegisteredRedirect } from './clients.ts'
import { checkDeviceCode, decideDeviceCode, pollDeviceCode, startDeviceAuthorization } from './device-codes.ts'
import { oauthLimits } from './rate-limits.ts'
import { introspectToken, refreshClientTokens } from './tokens.ts'

const tag = 'oauth'

export function oauthRoutes(services: RelayServices): Route[] {
  const { db, limiter } = services
  return [
    defineRoute({
      method: 'get',
      path: oauthPaths.client,
      summary: 'The client a consent screen names, checking its redirect URI and scope',
      description: 'The portal calls this before it shows the consent screen; an error here must never redirect.',
      tag,
      auth: 'none',
      query: clientQuery,
      response: clientInfoSchema,
      errors: ['invalid_client', 'redirect_uri_mismatch', 'invalid_scope'],
      handler: async ({ query }) => {
        const client = await findClient(db, query.client_id)
        if (query.redirect_uri !== undefined) requireRegisteredRedirect(client, query.redirect_uri)
        return {
          client_id: client.clientId,
          name: client.name,
          first_party: client.firstParty,
          scopes: requestedScopes(query.scope),
        }
      },
    }),

    defineRoute({
      method: 'post',
      path: oauthPaths.authorize,
      summary: "The signed-in user's decision on a code request or a device code",
      description:
        'Code flow: client_id, redirect_uri (exactly as registered), state, scope, PKCE S256 code_challenge and ' +
        'approve|deny; the reply is the URL to send the browser to. Device flow: device_code and approve|deny. ' +
        'Only a portal session may decide, never a token a client holds.',
      tag,
      auth: 'user',
      scope: 'session',
      body: authorizeBody,
      response: authorizeResultSchema,
      errors: ['invalid_client', 'redirect_uri_mismatch', 'invalid_scope', 'device_code_invalid', 'device_code_expired', 'rate_limited'],
      handler: async ({ body, user }) => {
        if ('device_code' in body) {
          await decideDeviceCode(services, user, body.device_code, body.decision)
          return { redirect_to: null }
        }
        return { redirect_to: await decideCodeRequest(services, user, body) }
      },
    }),

    defineRoute({
      method: 'post',
      path: oauthPaths.token,
      summary: 'Tokens for a code (with its PKCE verifier), a device authorisation, or a refresh token',
      description:
        `grant_type authorization_code, ${deviceCodeGrantType} (poll with device_secret no faster than the interval) ` +
        'or refresh_token. Access tokens carry only the granted scopes.',
      tag,
      auth: 'none',
      body: tokenBody,
      response: oauthTokensSchema,
      errors: ['invalid_client', 'invalid_grant', 'authorization_pending', 'slow_down', 'access_denied', 'expired_token'],
      handler: async ({ body }) => {
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
      },
    }),

    defineRoute({
      method: 'get',
      path: oauthPaths.deviceCode,
      summary: 'Start a device authorisation: the code to show the person and the secret to poll with',
      tag,
      auth: 'none',
      query: deviceCodeQuery,
      response: deviceAuthorizationSchema,
      errors: ['invalid_client', 'invalid_scope', 'rate_limited'],
      handler: async ({ query, clientIp }) => {
        await limiter.enforce(oauthLimits.deviceStartPerIp, clientIp)
        return startDeviceAuthorization(services, query.client_id, query.scope)
      },
    }),

    defineRoute({
      method: 'post',
      path: oauthPaths.verifyCode,
      summary: 'Check a device code the signed-in user typed: which client asks, for which scopes',
      tag,
      auth: 'user',
      scope: 'session',
      body: verifyCodeBody,
      response: deviceCodeCheckSchema,
      errors: ['device_code_invalid', 'device_code_expired', 'rate_limited'],
      handler: async ({ body, user }) => checkDeviceCode(services, user, body.device_code),
    }),

    defineRoute({
      method: 'post',
      path: oauthPaths.verifyToken,
      summary: 'Whether an access token issued to this client is active, for whom, with which scopes (RFC 7662)',
      tag,
      auth: 'none',
      body: verifyTokenBody,
      response: tokenIntrospectionSchema,
      errors: ['invalid_client'],
      handler: async ({ body }) => introspectToken(services, await authenticateClient(db, body.client_id, body.client_secret), body.token),
    }),
  ]
}
