/**
 * External clients as operators handle them, from the console (relay/admin/catalog-routes.ts) and
 * the CLI (oauth/cli.ts) alike, each change with its audit row in its transaction
 * (docs/decisions/116-operator-audit-log.md). A client keeps its client_id and secret when edited; removing it ends
 * every code and refresh token it holds (clients.ts).
 */
import type { AdminOAuthClient } from '../contract/admin-catalog.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import type { Clock } from '../clock.ts'
import { inTransaction } from '../points/locks.ts'
import { checkClient, createClient, listClients, removeClient, type NewClient, type OAuthClient } from './clients.ts'

function toAdminClient(id: string, client: OAuthClient): AdminOAuthClient {
  return { id, client_id: client.clientId, name: client.name, redirect_uris: client.redirectUris, first_party: client.firstParty, create_timestamp: client.createdAt }
}

/** What the audit log keeps of a client: never its secret. */
function clientState(client: Pick<OAuthClient, 'name' | 'redirectUris' | 'firstParty'>) {
  return { name: client.name, redirect_uris: client.redirectUris, first_party: client.firstParty }
}

export async function listClientsForOperator(db: Database): Promise<AdminOAuthClient[]> {
  const [rows, clients] = await Promise.all([db.selectFrom('oauth_clients').select(['id', 'client_id']).execute(), listClients(db)])
  const ids = new Map(rows.map((row) => [row.client_id, row.id]))
  return clients.map((client) => toAdminClient(ids.get(client.clientId)!, client))
}

/** The client and its secret, which this reply is the only one to show. */
export async function createClientAsOperator(db: Database, operator: Operator, clock: Clock, input: NewClient): Promise<{ client: AdminOAuthClient; secret: string }> {
  return inTransaction(db, async (trx) => {
    const { client, secret } = await createClient({ db: trx, clock }, input)
    const row = await trx.selectFrom('oauth_clients').select('id').where('client_id', '=', client.clientId).executeTakeFirstOrThrow()
    await recordAudit(trx, operator, { action: 'oauth_client.create', target: { kind: 'oauth_client', ref: client.clientId }, after: clientState(client) }, clock.now())
    return { client: toAdminClient(row.id, client), secret }
  })
}

/** `id` is the row's id (the console's); the CLI names clients by client_id. */
type ClientReference = { id: string } | { clientId: string }

async function findRow(db: Database, reference: ClientReference) {
  const row = await db
    .selectFrom('oauth_clients')
    .selectAll()
    .$if('id' in reference, (qb) => qb.where('id', '=', (reference as { id: string }).id))
    .$if('clientId' in reference, (qb) => qb.where('client_id', '=', (reference as { clientId: string }).clientId))
    .executeTakeFirst()
  if (!row) throw new RelayError('not_found', `no client ${'id' in reference ? reference.id : reference.clientId}`)
  return row
}

export async function updateClientAsOperator(db: Database, operator: Operator, input: { client: ClientReference; change: NewClient; now: number }): Promise<AdminOAuthClient> {
  const checked = checkClient(input.change)
  return inTransaction(db, async (trx) => {
    const row = await findRow(trx, input.client)
    const before = { name: row.name, redirectUris: JSON.parse(row.redirect_uris) as string[], firstParty: row.first_party === 1 }
    await trx
      .updateTable('oauth_clients')
      .set({ name: checked.name, redirect_uris: JSON.stringify(checked.redirectUris), first_party: checked.firstParty ? 1 : 0 })
      .where('id', '=', row.id)
      .execute()
    await recordAudit(trx, operator, { action: 'oauth_client.update', target: { kind: 'oauth_client', ref: row.client_id }, before: clientState(before), after: clientState(checked) }, input.now)
    return toAdminClient(row.id, { ...checked, clientId: row.client_id, createdAt: row.created_at })
  })
}

export async function removeClientAsOperator(db: Database, operator: Operator, input: { client: ClientReference; now: number }): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await findRow(trx, input.client)
    await removeClient(trx, row.client_id)
    const before = { name: row.name, redirectUris: JSON.parse(row.redirect_uris) as string[], firstParty: row.first_party === 1 }
    await recordAudit(trx, operator, { action: 'oauth_client.remove', target: { kind: 'oauth_client', ref: row.client_id }, before: clientState(before) }, input.now)
  })
}
