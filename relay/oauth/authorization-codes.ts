/**
 * The authorisation code flow with PKCE (RFC 6749 §4.1, RFC 7636 S256; docs/architecture.md §6). The user's
 * decision on the consent screen becomes the URL the browser is sent to: the registered redirect
 * URI with `code` and `state`, or with `error=access_denied` and `state`. A code lives 60 s, works
 * once, and only for the client, redirect URI and verifier it was issued for. A code presented a
 * second time ends whatever the first exchange handed out (RFC 6749 §4.1.2).
 */
import type { OAuthScope } from '../contract/oauth-scopes.ts'
import type { OAuthTokens } from '../contract/oauth.ts'
import { newId } from '../db/ids.ts'
import { RelayError } from '../http/relay-error.ts'
import type { AuthUser } from '../http/authenticate.ts'
import type { RelayServices } from '../services.ts'
import { requireRegisteredRedirect, requestedScopes, findClient, type OAuthClient } from './clients.ts'
import { digest, pkceChallenge, randomSecret, sameDigest, spentCodeRetentionMs } from './secrets.ts'
import { grantingUser, issueClientTokens, revokeGrant } from './tokens.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

export const authorizationCodeTtlMs = 60_000

export interface CodeRequest {
  client_id: string
  redirect_uri: string
  state: string
  scope?: string
  code_challenge: string
  decision: 'approve' | 'deny'
}

/**
 * Where the browser goes after the user decided. An unknown client, an unregistered redirect
 * URI or an unknown scope throws instead: those must never redirect anywhere.
 */
export async function decideCodeRequest(services: Services, user: AuthUser, request: CodeRequest): Promise<string> {
  const client = await findClient(services.db, request.client_id)
  requireRegisteredRedirect(client, request.redirect_uri)
  const scopes = requestedScopes(request.scope)
  const target = new URL(request.redirect_uri)
  if (request.decision === 'deny') {
    target.searchParams.set('error', 'access_denied')
  } else {
    target.searchParams.set('code', await issueCode(services, client, user, request, scopes))
  }
  target.searchParams.set('state', request.state)
  return target.toString()
}

async function issueCode(
  { db, clock }: Services,
  client: OAuthClient,
  user: AuthUser,
  request: CodeRequest,
  scopes: OAuthScope[],
): Promise<string> {
  const code = randomSecret('rac_')
  const now = clock.now()
  // Sweeping here needs no scheduler; the index on expires_at keeps it cheap.
  await db.deleteFrom('oauth_authorization_codes').where('expires_at', '<', now - spentCodeRetentionMs).execute()
  await db
    .insertInto('oauth_authorization_codes')
    .values({
      id: newId(),
      code_hash: digest(code),
      client_id: client.clientId,
      user_id: user.id,
      redirect_uri: request.redirect_uri,
      scope: scopes.join(' '),
      code_challenge: request.code_challenge,
      created_at: now,
      expires_at: now + authorizationCodeTtlMs,
      used_at: null,
    })
    .execute()
  return code
}

/** `grant_type=authorization_code`: tokens once, or 400 `invalid_grant`. */
export async function exchangeCode(
  services: Services,
  client: OAuthClient,
  exchange: { code: string; redirect_uri: string; code_verifier: string },
): Promise<OAuthTokens> {
  const { db, clock } = services
  const now = clock.now()
  const row = await db
    .selectFrom('oauth_authorization_codes')
    .selectAll()
    .where('code_hash', '=', digest(exchange.code))
    .executeTakeFirst()
  if (!row) throw new RelayError('invalid_grant')
  if (row.used_at !== null) {
    // The grant's family id is the code's id: a replayed code ends the tokens it produced.
    await revokeGrant(services, row.id)
    throw new RelayError('invalid_grant')
  }
  const bound =
    row.client_id === client.clientId &&
    row.redirect_uri === exchange.redirect_uri &&
    sameDigest(pkceChallenge(exchange.code_verifier), row.code_challenge)
  // A wrong verifier leaves the code alone: only its holder, with the verifier, can use it.
  if (row.expires_at <= now || !bound) throw new RelayError('invalid_grant')
  const claimed = await db
    .updateTable('oauth_authorization_codes')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst()
  if (claimed.numUpdatedRows !== 1n) throw new RelayError('invalid_grant')
  const user = await grantingUser(services, row.user_id)
  if (!user) throw new RelayError('invalid_grant')
  return issueClientTokens(services, user, client.clientId, requestedScopes(row.scope), row.id)
}
