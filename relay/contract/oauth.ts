/**
 * Sign-in for external clients (docs/product.md; docs/architecture.md §6): the authorisation code flow with PKCE,
 * the device flow of RFC 8628 and token introspection in the manner of RFC 7662, all under
 * `/api/oauth/internal/`. Replies use the relay's envelope like every other call; the error
 * reasons carry the RFC names (`authorization_pending`, `slow_down`, `invalid_grant`…) so a
 * client can branch on `error.details.reason`. docs/oauth.md walks through both flows.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { oauthScopes } from './oauth-scopes.ts'

/** The 8 characters a person types, shown as XXXX-XXXX. */
export const deviceCodeLength = 8

/**
 * Canonical `XXXX-XXXX` form of what a person typed: hyphens and spaces dropped, any case; null
 * unless 8 letters or digits remain. Any [0-9A-Z] is let through, so a relay that issues digits
 * works too; ours maps the look-alikes of its alphabet itself (relay/oauth/device-codes.ts).
 */
export function normaliseDeviceCode(input: string): string | null {
  const compact = input.replace(/[\s-]+/g, '').toUpperCase()
  if (!new RegExp(`^[0-9A-Z]{${deviceCodeLength}}$`).test(compact)) return null
  return `${compact.slice(0, 4)}-${compact.slice(4)}`
}

const clientIdSchema = z.string().trim().min(1).max(64)
const clientSecretSchema = z.string().min(1).max(128)
const redirectUriSchema = z.string().min(1).max(2048)
/** A scope parameter; unknown names are refused as `invalid_scope` by the handler. */
const scopeSchema = z.string().max(200).optional()
/** What a person typed; the handler normalises it, so a malformed code is `device_code_invalid`. */
const deviceCodeSchema = z.string().max(32)
const decisionSchema = z.enum(['approve', 'deny'])

export const clientQuery = z.object({
  client_id: clientIdSchema,
  /** When given, it must be one the client registered, exactly. */
  redirect_uri: redirectUriSchema.optional(),
  scope: scopeSchema,
})

/** The code flow: the browser is sent back to `redirect_uri` with a code or with `error=access_denied`. */
export const authorizeCodeBody = z.object({
  client_id: clientIdSchema,
  redirect_uri: redirectUriSchema,
  /** Handed back untouched; the client checks it against what it sent (CSRF). */
  state: z.string().min(1).max(512),
  scope: scopeSchema,
  /** BASE64URL(SHA-256(code_verifier)), RFC 7636. */
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  code_challenge_method: z.literal('S256'),
  decision: decisionSchema,
})

/** The device flow: the signed-in user approves or denies the code their device shows. */
export const authorizeDeviceBody = z.object({ device_code: deviceCodeSchema, decision: decisionSchema })

export const authorizeBody = z.union([authorizeCodeBody, authorizeDeviceBody])

export const deviceCodeGrantType = 'urn:ietf:params:oauth:grant-type:device_code'

/** Client authentication: the id and secret `npm run admin -- client create` printed. */
const clientAuth = { client_id: clientIdSchema, client_secret: clientSecretSchema }

export const tokenBody = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('authorization_code'),
    code: z.string().min(1).max(128),
    redirect_uri: redirectUriSchema,
    /** RFC 7636 §4.1: 43–128 unreserved characters. */
    code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
    ...clientAuth,
  }),
  z.object({
    grant_type: z.literal(deviceCodeGrantType),
    /** The long secret from the device-code call, never the 8 characters a person types. */
    device_secret: z.string().min(1).max(128),
    client_id: clientIdSchema,
    /** Optional: the device secret already proves who started the flow; checked when sent. */
    client_secret: clientSecretSchema.optional(),
  }),
  z.object({
    grant_type: z.literal('refresh_token'),
    refresh_token: z.string().min(1).max(256),
    ...clientAuth,
  }),
])

export const deviceCodeQuery = z.object({ client_id: clientIdSchema, scope: scopeSchema })

export const verifyCodeBody = z.object({ device_code: deviceCodeSchema })

export const verifyTokenBody = z.object({ token: z.string().min(1).max(4096), ...clientAuth })

export { oauthScreens } from './screens.ts'

const scopeListSchema = z.array(z.enum(oauthScopes))

export const clientInfoSchema = z
  .object({
    client_id: z.string(),
    name: z.string(),
    /** Our own app: only these may use the SSO screen. */
    first_party: z.boolean(),
    /** The requested scope, parsed. */
    scopes: scopeListSchema,
    /** The longest the grant lasts, however often the client refreshes (SESSION_LIFETIME_DAYS). */
    grant_days: z.int(),
  })
  .meta({ id: 'OAuthClientInfo' })
export type ClientInfo = z.output<typeof clientInfoSchema>

export const authorizeResultSchema = z
  .object({
    /** The code flow: where to send the browser. The device flow: null. */
    redirect_to: z.string().nullable(),
  })
  .meta({ id: 'OAuthAuthorizeResult' })
export type AuthorizeResult = z.output<typeof authorizeResultSchema>

export const oauthTokensSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    /** Seconds the access token lives. */
    expires_in: z.int(),
    refresh_token: z.string(),
    refresh_expires_in: z.int(),
    /** The granted scopes, space-separated. */
    scope: z.string(),
  })
  .meta({ id: 'OAuthTokens' })
export type OAuthTokens = z.output<typeof oauthTokensSchema>

export const deviceAuthorizationSchema = z
  .object({
    /** The 8 characters to show the person, XXXX-XXXX. */
    device_code: z.string(),
    /** What the client polls the token call with; keep it to yourself. */
    device_secret: z.string(),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.int(),
    /** Seconds to wait between polls. */
    interval: z.int(),
  })
  .meta({ id: 'DeviceAuthorization' })
export type DeviceAuthorization = z.output<typeof deviceAuthorizationSchema>

export const deviceCodeCheckSchema = z
  .object({
    device_code: z.string(),
    client_id: z.string(),
    client_name: z.string(),
    scopes: scopeListSchema,
    expires_timestamp: z.int(),
    /** When and from which address the device asked (RFC 8628 §5.4); the address is null on old codes. */
    requested_timestamp: z.int(),
    requested_from: z.string().nullable(),
    /** The longest the grant lasts, however often the client refreshes (SESSION_LIFETIME_DAYS). */
    grant_days: z.int(),
  })
  .meta({ id: 'DeviceCodeCheck' })
export type DeviceCodeCheck = z.output<typeof deviceCodeCheckSchema>

export const tokenIntrospectionSchema = z
  .object({
    active: z.boolean(),
    /** The user id, as a string (RFC 7662). */
    sub: z.string().optional(),
    username: z.string().optional(),
    client_id: z.string().optional(),
    scope: z.string().optional(),
    /** Expiry, epoch seconds (RFC 7662). */
    exp: z.int().optional(),
  })
  .meta({ id: 'TokenIntrospection' })
export type TokenIntrospection = z.output<typeof tokenIntrospectionSchema>

const tag = 'oauth'

export const oauthEndpoints = {
  client: endpoint({
    method: 'get',
    path: '/api/oauth/internal/client',
    summary: 'The client a consent screen names, checking its redirect URI and scope',
    description: 'The portal calls this before it shows the consent screen; an error here must never redirect.',
    tag,
    auth: 'none',
    query: clientQuery,
    response: clientInfoSchema,
    errors: ['invalid_client', 'redirect_uri_mismatch', 'invalid_scope'],
  }),
  authorize: endpoint({
    method: 'post',
    path: '/api/oauth/internal/authorize',
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
  }),
  token: endpoint({
    method: 'post',
    path: '/api/oauth/internal/token',
    summary: 'Tokens for a code (with its PKCE verifier), a device authorisation, or a refresh token',
    description:
      `grant_type authorization_code, ${deviceCodeGrantType} (poll with device_secret no faster than the interval) ` +
      'or refresh_token. Access tokens carry only the granted scopes.',
    tag,
    auth: 'none',
    body: tokenBody,
    response: oauthTokensSchema,
    errors: ['invalid_client', 'invalid_grant', 'authorization_pending', 'slow_down', 'access_denied', 'expired_token'],
  }),
  deviceCode: endpoint({
    method: 'get',
    path: '/api/oauth/internal/device-code',
    summary: 'Start a device authorisation: the code to show the person and the secret to poll with',
    tag,
    auth: 'none',
    query: deviceCodeQuery,
    response: deviceAuthorizationSchema,
    errors: ['invalid_client', 'invalid_scope', 'rate_limited'],
  }),
  verifyCode: endpoint({
    method: 'post',
    path: '/api/oauth/internal/verify-code',
    summary: 'Check a device code the signed-in user typed: which client asks, for which scopes',
    tag,
    auth: 'user',
    scope: 'session',
    body: verifyCodeBody,
    response: deviceCodeCheckSchema,
    errors: ['device_code_invalid', 'device_code_expired', 'rate_limited'],
  }),
  verifyToken: endpoint({
    method: 'post',
    path: '/api/oauth/internal/verify-token',
    summary: 'Whether an access token issued to this client is active, for whom, with which scopes (RFC 7662)',
    tag,
    auth: 'none',
    body: verifyTokenBody,
    response: tokenIntrospectionSchema,
    errors: ['invalid_client'],
  }),
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Why `uri` cannot be registered, or null. Browsers carry codes to it, so it must be https, or
 * plain http only on this machine (native apps listening on loopback, RFC 8252 §7.3), and it
 * has no fragment (RFC 6749 §3.1.2).
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'not an absolute URL'
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment (#)'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && loopbackHosts.has(url.hostname)) return null
  return 'must be https://, or http:// on localhost, 127.0.0.1 or [::1]'
}
