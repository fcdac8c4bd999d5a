/**
 * The operators' call log (docs/console.md, "Calls"): every user's `proxy_calls`, newest first by
 * (create_timestamp, id), as the owner's usage log reads theirs (usage/log.ts), so any page costs
 * what the first does. Each filter has an index of its own to walk in that order: a user
 * `proxy_calls_user`, a key `proxy_calls_key`, a model, a provider, an outcome other than answered
 * and no filter at all those of migration 0063, a request id the primary key.
 */
import type { AdminCall, AdminCallDetail, AdminCalls, AdminCallsFilter } from '../contract/admin-calls.ts'
import { isId } from '../contract/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { ProxyCallsTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { providerLabel } from '../proxy/providers.ts'
import { callColumns, callsCsv, csvCells, csvColumns, cursorOf, holdEntries, newestFirst, outcomesOf, pageWindow, toUsageCall } from '../usage/log.ts'

export async function adminCalls(db: Database, filter: AdminCallsFilter, cursor: string | undefined, pageSize: number): Promise<AdminCalls> {
  const rows = await page(db, filter, cursor, pageSize + 1)
  const items = rows.slice(0, pageSize)
  return { items, next_cursor: rows.length > pageSize ? cursorOf(items.at(-1)!) : null }
}

export async function adminCallDetail(db: Database, id: string): Promise<AdminCallDetail> {
  const row = await selectCalls(db).where('c.id', '=', id).executeTakeFirst()
  if (!row) throw new RelayError('not_found', 'call not found')
  return { call: toAdminCall(row), entries: await holdEntries(db, row.hold_id, row.user_id) }
}

const adminCsvColumns = [...csvColumns, 'user_id', 'username', 'provider_id', 'provider', 'upstream_model', 'client_ip', 'relay_ms'] as const

export function adminCallsCsv(db: Database, filter: AdminCallsFilter): ReadableStream<Uint8Array> {
  return callsCsv(adminCsvColumns, (cursor, limit) => page(db, filter, cursor, limit), (call) => [
    ...csvCells(call),
    call.user_id,
    call.username,
    call.provider_id ?? '',
    call.provider ?? '',
    call.upstream_model ?? '',
    call.client_ip,
    call.relay_ms ?? '',
  ])
}

function selectCalls(db: Database) {
  return db
    .selectFrom('proxy_calls as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('api_keys as k', 'k.id', 'c.key_id')
    .leftJoin('proxy_providers as p', 'p.id', 'c.provider_id')
    .select([...callColumns, 'c.user_id', 'u.username', 'c.provider_id', 'p.kind as provider_kind', 'p.base_url as provider_url', 'c.upstream_model', 'c.client_ip', 'c.relay_ms'])
}

function toAdminCall(row: Awaited<ReturnType<ReturnType<typeof selectCalls>['execute']>>[number]): AdminCall {
  const { provider_kind: kind, provider_url: url, ...call } = toUsageCall(row)
  return { ...call, provider: kind !== null && url !== null ? providerLabel({ kind, base_url: url }) : null }
}

/** The user a filter names by id or by username (any case); null when there is none. */
async function userOf(db: Database, user: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => (isId(user) ? eb.or([eb('id', '=', user), eb(eb.fn('lower', ['username']), '=', user.toLowerCase())]) : eb(eb.fn('lower', ['username']), '=', user.toLowerCase())))
    .executeTakeFirst()
  return row?.id ?? null
}

async function page(db: Database, filter: AdminCallsFilter, cursor: string | undefined, limit: number): Promise<AdminCall[]> {
  const userId = filter.user === undefined ? undefined : await userOf(db, filter.user)
  if (userId === null) return []
  if (filter.outcome === undefined) return pageOf(db, filter, userId, cursor, limit, undefined)
  // One stored outcome at a time along its own index range, then merged, as usage/log.ts does.
  const pages = await Promise.all(outcomesOf[filter.outcome].map((outcome) => pageOf(db, filter, userId, cursor, limit, outcome)))
  return pages.length === 1 ? pages[0]! : pages.flat().sort(newestFirst).slice(0, limit)
}

async function pageOf(
  db: Database,
  filter: AdminCallsFilter,
  userId: string | undefined,
  cursor: string | undefined,
  limit: number,
  outcome: ProxyCallsTable['outcome'] | undefined,
): Promise<AdminCall[]> {
  const rows = await selectCalls(db)
    .$if(filter.request_id !== undefined, (qb) => qb.where('c.id', '=', filter.request_id!))
    .$if(userId !== undefined, (qb) => qb.where('c.user_id', '=', userId!))
    .$if(filter.key_id !== undefined, (qb) => qb.where('c.key_id', '=', filter.key_id!))
    .$if(filter.model !== undefined, (qb) => qb.where('c.model', '=', filter.model!))
    .$if(filter.provider_id !== undefined, (qb) => qb.where('c.provider_id', '=', filter.provider_id!))
    .where((eb) => pageWindow(eb, { outcome, from: filter.from, to: filter.to, cursor }))
    .orderBy('c.create_timestamp', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toAdminCall)
}
