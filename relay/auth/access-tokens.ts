/**
 * Short-lived HS256 JWT access tokens: `sub` is the user id, `ver` the user's token version
 * (bumped on password change or reset, which ends every outstanding access token at once), `sid`
 * the session it belongs to — the refresh-token family of a portal login or a client's grant —
 * so signing out or revoking a grant ends its access tokens at once too (docs/decisions/003-sessions.md).
 * `iss` and `aud` are the relay's public address and `exp` is required: a token signed with the
 * secret for anything else is refused. Tokens issued to an external client (relay/oauth) also
 * carry `client_id` and `scope`, the scopes the user granted; a token without `scope` comes from
 * a portal login and may do everything (docs/decisions/011-tokens-and-scopes.md). A token an
 * operator reads a user's pages with (admin/view-as.ts) carries `view_by`, the operator's id, and
 * only reads (http/authenticate.ts).
 */
import { SignJWT, errors, jwtVerify } from 'jose'
import type { Clock } from '../clock.ts'
import type { RelayConfig } from '../config.ts'
import { parseScopes, type OAuthScope } from '../contract/oauth-scopes.ts'
import { RelayError } from '../http/relay-error.ts'

export interface AccessClaims {
  userId: string
  version: number
  /** The granted scopes of a client's token; null for a portal login, which holds every scope. */
  scopes: OAuthScope[] | null
  clientId: string | null
  /** The session (refresh-token family) the token belongs to. */
  sessionId: string
  /** Epoch seconds. */
  expiresAt: number
  /** The operator reading as the user (a read-only token); null otherwise. */
  viewerId: string | null
}

/** What a user granted an external client. */
export interface ClientGrant {
  clientId: string
  scopes: readonly OAuthScope[]
}

const encoder = new TextEncoder()

export async function signAccessToken(
  config: RelayConfig,
  clock: Clock,
  user: { id: string; token_version: number },
  sessionId: string,
  grant?: ClientGrant,
): Promise<string> {
  const claims = { ver: user.token_version, sid: sessionId, ...(grant && { client_id: grant.clientId, scope: grant.scopes.join(' ') }) }
  return sign(config, clock, user.id, claims, config.accessTokenTtlSeconds)
}

/**
 * A read-only token for `user`, held by the operator `viewerId` in the operator's own session
 * (`sessionId`): signing out of the console ends it as it ends the operator's tokens.
 */
export async function signViewToken(
  config: RelayConfig,
  clock: Clock,
  user: { id: string; token_version: number },
  view: { sessionId: string; viewerId: string; ttlSeconds: number },
): Promise<string> {
  return sign(config, clock, user.id, { ver: user.token_version, sid: view.sessionId, view_by: view.viewerId }, view.ttlSeconds)
}

function sign(config: RelayConfig, clock: Clock, subject: string, claims: Record<string, unknown>, ttlSeconds: number): Promise<string> {
  const issuedAt = Math.floor(clock.now() / 1000)
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(subject)
    .setIssuer(config.publicUrl)
    .setAudience(config.publicUrl)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(encoder.encode(config.jwtSecrets[0]))
}

/** Throws 401 `token_expired` or `unauthenticated`. Tries every configured secret (rotation). */
export async function verifyAccessToken(config: RelayConfig, clock: Clock, token: string): Promise<AccessClaims> {
  for (const secret of config.jwtSecrets) {
    try {
      const { payload } = await jwtVerify(token, encoder.encode(secret), {
        algorithms: ['HS256'],
        issuer: config.publicUrl,
        audience: config.publicUrl,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: new Date(clock.now()),
      })
      const { sub, ver, sid, exp } = payload
      if (typeof sub !== 'string' || !/^\d+$/.test(sub) || typeof ver !== 'number' || typeof sid !== 'string' || !/^\d+$/.test(sid)) break
      const granted = grantOf(payload)
      if (granted === undefined) break
      const viewerId = payload.view_by ?? null
      // A client's token never reads as someone else.
      if (viewerId !== null && (typeof viewerId !== 'string' || !/^\d+$/.test(viewerId) || granted.clientId !== null)) break
      return { userId: sub, version: ver, sessionId: sid, expiresAt: exp!, ...granted, viewerId }
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new RelayError('token_expired')
      if (error instanceof errors.JWSSignatureVerificationFailed) continue
      break
    }
  }
  throw new RelayError('unauthenticated')
}

/** The client grant a payload carries: none for a portal login; undefined when it is malformed. */
function grantOf(payload: Record<string, unknown>): Pick<AccessClaims, 'scopes' | 'clientId'> | undefined {
  if (payload.client_id === undefined && payload.scope === undefined) return { scopes: null, clientId: null }
  if (typeof payload.client_id !== 'string' || typeof payload.scope !== 'string') return undefined
  const scopes = parseScopes(payload.scope)
  return scopes ? { scopes, clientId: payload.client_id } : undefined
}
