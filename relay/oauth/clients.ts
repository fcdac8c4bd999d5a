/**
 * Registered external clients (`npm run admin -- client …`). A client has a public id, a secret
 * shown once and kept as a digest, and the redirect URIs it may send browsers back to, matched
 * exactly (docs/architecture.md §6). First-party clients are our own apps: only they may use the SSO screen.
 */
import { randomBytes } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { Clock } from '../clock.ts'
import { redirectUriProblem } from '../contract/oauth.ts'
import { parseScopes, type OAuthScope } from '../contract/oauth-scopes.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { OAuthClientsTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { inTransaction } from '../points/locks.ts'
import { digest, randomSecret, sameDigest } from './secrets.ts'

export interface OAuthClient {
  clientId: string
  name: string
  redirectUris: string[]
  firstParty: boolean
  createdAt: number
}

export interface NewClient {
  name: string
  redirectUris: string[]
  firstParty: boolean
}

export const clientNameMaxLength = 100
/**
 * The client as it will be stored (name trimmed, URIs without repeats); a 400 `validation` naming
 * the field otherwise, which the console shows beside it and the CLI prints.
 */
export function checkClient(input: NewClient): NewClient {
  const name = input.name.trim()
  if (name.length === 0 || name.length > clientNameMaxLength) {
    throw new RelayError('validation', `client name must be 1–${clientNameMaxLength} characters`, { fields: { name: [`1–${clientNameMaxLength}`] } })
  }
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri)
    if (problem) throw new RelayError('validation', `redirect URI ${uri}: ${problem}`, { fields: { redirect_uris: [`${uri}: ${problem}`] } })
  }
  return { name, redirectUris: [...new Set(input.redirectUris)], firstParty: input.firstParty }
}

function toClient(row: Selectable<OAuthClientsTable>): OAuthClient {
  return {
    clientId: row.client_id,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    firstParty: row.first_party === 1,
    createdAt: row.created_at,
  }
}

/** Registers a client; the secret in the reply is the only time it exists in clear. */
export async function createClient(
  { db, clock }: { db: Database; clock: Clock },
  input: NewClient,
): Promise<{ client: OAuthClient; secret: string }> {
  const { name, redirectUris } = checkClient(input)
  // The `rc_` prefix keeps ids from ever being all digits, which the wire format would turn into numbers.
  const clientId = `rc_${randomBytes(16).toString('base64url')}`
  const secret = randomSecret('rcs_')
  const row = {
    id: newId(),
    client_id: clientId,
    name,
    secret_hash: digest(secret),
    redirect_uris: JSON.stringify(redirectUris),
    first_party: input.firstParty ? 1 : 0,
    created_at: clock.now(),
  }
  await db.insertInto('oauth_clients').values(row).execute()
  return { client: toClient(row), secret }
}

export async function listClients(db: Database): Promise<OAuthClient[]> {
  const rows = await db.selectFrom('oauth_clients').selectAll().orderBy('id').execute()
  return rows.map(toClient)
}

/** Removes the client with every code and token it holds; false when there is no such client. */
export async function removeClient(db: Database, clientId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom('oauth_refresh_tokens').where('client_id', '=', clientId).execute()
    await trx.deleteFrom('oauth_device_codes').where('client_id', '=', clientId).execute()
    await trx.deleteFrom('oauth_authorization_codes').where('client_id', '=', clientId).execute()
    const result = await trx.deleteFrom('oauth_clients').where('client_id', '=', clientId).executeTakeFirst()
    return result.numDeletedRows === 1n
  })
}

export async function findClient(db: Database, clientId: string): Promise<OAuthClient> {
  const row = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst()
  if (!row) throw new RelayError('invalid_client', 'unknown client')
  return toClient(row)
}

/** The client whose id and secret these are; 400 `invalid_client` otherwise. */
export async function authenticateClient(db: Database, clientId: string, secret: string): Promise<OAuthClient> {
  const row = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst()
  if (!row || !sameDigest(digest(secret), row.secret_hash)) throw new RelayError('invalid_client')
  return toClient(row)
}

/** Refuses a redirect URI the client did not register, character for character. */
export function requireRegisteredRedirect(client: OAuthClient, redirectUri: string): void {
  if (!client.redirectUris.includes(redirectUri)) throw new RelayError('redirect_uri_mismatch')
}

/** The scopes a request names (absent: `profile`); 400 `invalid_scope` for an unknown one. */
export function requestedScopes(scope: string | undefined): OAuthScope[] {
  const scopes = parseScopes(scope)
  if (!scopes) throw new RelayError('invalid_scope')
  return scopes
}
