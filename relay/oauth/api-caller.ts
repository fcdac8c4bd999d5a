/**
 * Who calls the model API (`/v1/*`) and `GET /api/v1/usage`: an API key's owner, or the user
 * behind an OAuth access token the user granted the `api` scope (device flow or authorisation
 * code; docs/decisions/011-tokens-and-scopes.md). Either way the calls are the user's, charged to their points. A
 * client's token without `api` is refused with `insufficient_scope`; a portal sign-in token
 * (which names no client) is not a credential for these calls: keys are made for that.
 */
import type { Context } from 'hono'
import { verifyAccessToken } from '../auth/access-tokens.ts'
import { userOfAccessToken } from '../auth/token-user.ts'
import { apiKeyPattern } from '../contract/api-keys.ts'
import { clientIp } from '../http/client-ip.ts'
import { RelayError } from '../http/relay-error.ts'
import { apiKeyOf } from '../keys/request-key.ts'
import { KnownCallerRefusal, type KeyControls } from '../keys/limits.ts'
import { addressAllowed } from '../keys/networks.ts'
import { authenticateApiKey } from '../keys/service.ts'
import type { RelayServices } from '../services.ts'

export interface ApiCaller {
  userId: string
  /** The API key, or null for an OAuth token. */
  keyId: string | null
  /** The OAuth client whose token it is, or null for an API key. */
  clientId: string | null
  /** The key's controls (keys/limits.ts), or null for an OAuth token. */
  key: KeyControls | null
}

/**
 * The caller, or RelayError (KnownCallerRefusal once the caller is known) `unauthenticated` / `token_expired` / `api_key_disabled` /
 * `api_key_expired` (401), `insufficient_scope` or `api_key_address_refused` (403). `cached`: an API key may come from the
 * process's cache, for a caller that confirms it (keys/service.ts `authenticateApiKey`).
 */
export async function apiCaller(c: Context, services: RelayServices, options: { cached?: boolean } = {}): Promise<ApiCaller> {
  const credential = apiKeyOf(c)
  if (!credential) throw new RelayError('unauthenticated', 'an API key or an OAuth access token with the api scope is required')
  if (apiKeyPattern.test(credential)) {
    const identity = await authenticateApiKey(services.db, credential, services.clock, options)
    if (!identity) throw new RelayError('unauthenticated', 'unknown or deleted API key')
    const networks = identity.controls.allowedNetworks
    if (networks) {
      const address = clientIp(c, services.config.trustProxy)
      if (!addressAllowed(networks, address)) {
        const refusal = new RelayError('api_key_address_refused', `the API key may not be used from ${address}`, { address })
        throw new KnownCallerRefusal(refusal, { userId: identity.userId, keyId: identity.keyId, clientId: null })
      }
    }
    return { userId: identity.userId, keyId: identity.keyId, clientId: null, key: identity.controls }
  }
  // Not a key: perhaps a client's access token (a JWT).
  if (credential.split('.').length !== 3) throw new RelayError('unauthenticated', 'unknown or deleted API key')
  const claims = await verifyAccessToken(services.config, services.clock, credential)
  if (claims.clientId === null || claims.scopes === null) throw new RelayError('unauthenticated', 'a portal sign-in token is not an API credential')
  // The user first: a refusal of a live user's token is recorded as their call.
  if (!(await userOfAccessToken(services.db, claims))) throw new RelayError('unauthenticated')
  if (!claims.scopes.includes('api')) {
    const refusal = new RelayError('insufficient_scope', 'the token was not granted the api scope', { required_scope: 'api' })
    throw new KnownCallerRefusal(refusal, { userId: claims.userId, keyId: null, clientId: claims.clientId })
  }
  return { userId: claims.userId, keyId: null, clientId: claims.clientId, key: null }
}
