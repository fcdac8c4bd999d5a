/**
 * One `proxy_calls` row per call the relay answers for a known caller, under its request id: who (user, API key or OAuth client, caller IP), what (API, model,
 * streamed), how it ended, the tokens and the points. Never a prompt or a completion (docs/architecture.md §6).
 */
import type { Insertable } from 'kysely'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { ProxyCallsTable } from '../db/schema.ts'
import type { ItemisedCharge, TokenUsage } from '../points/model-costs.ts'

export type CallOutcome = ProxyCallsTable['outcome']

export interface CallRecord {
  /** The call's request id, minted as it arrived (request-id.ts): the row's id. */
  id: string
  userId: string
  /** The API key the call was made with, or null for an OAuth access token (then `clientId`). */
  keyId: string | null
  clientId: string | null
  providerId: string | null
  api: ProxyCallsTable['api']
  model: string
  streamed: boolean
  outcome: CallOutcome
  status: number
  usage: TokenUsage | null
  /** What the usage cost, line by line (points/model-costs.ts); null when nothing was charged for. */
  charge?: ItemisedCharge | null
  points: number
  /** What the usage cost beyond what the balance held (docs/decisions/072-how-a-call-is-charged.md). */
  shortfall: number
  clientIp: string
  startedAt: number
  durationMs: number
  /** Why the relay refused the call itself (a ProxyError kind); absent when it was forwarded. */
  refusal?: string | null
  /** From the call's arrival to the provider's answer starting; absent when no answer came. */
  firstByteMs?: number | null
  /** The hold that reserved the call's points, if any: its ledger rows carry the same id. */
  holdId?: string | null
  /** Time the relay spent before forwarding, the client's upload excluded (docs/decisions/120-figures-from-hourly-aggregates.md). */
  relayMs: number
  /** The name the provider was asked for, when its model mapping changed it (model-mapping.ts). */
  upstreamModel?: string | null
}

export async function recordCall(db: Database, call: CallRecord): Promise<void> {
  await insertCall(db, callRow(call))
}

/** A group's calls (proxy/settlements.ts): one INSERT of them all on PostgreSQL, where each statement is a round trip. */
export async function recordCalls(db: Database, calls: readonly CallRecord[]): Promise<void> {
  if (isPostgres(db) && calls.length > 1) await db.insertInto('proxy_calls').values(calls.map(callRow)).execute()
  else for (const call of calls) await recordCall(db, call)
}

/** The call's `proxy_calls` row. */
export function callRow(call: CallRecord): Required<Insertable<ProxyCallsTable>> {
  return {
    id: call.id,
    user_id: call.userId,
    key_id: call.keyId,
    client_id: call.clientId,
    provider_id: call.providerId,
    api: call.api,
    model: call.model,
    streamed: call.streamed ? 1 : 0,
    outcome: call.outcome,
    status: call.status,
    input_tokens: call.usage?.input_tokens ?? 0,
    output_tokens: call.usage?.output_tokens ?? 0,
    cache_read_tokens: call.usage?.cache_read_tokens ?? 0,
    cache_write_tokens: call.usage?.cache_write_tokens ?? 0,
    cache_write_1h_tokens: call.usage?.cache_write_1h_tokens ?? 0,
    web_search_requests: call.usage?.web_search_requests ?? 0,
    points: call.points,
    shortfall_points: call.shortfall,
    client_ip: call.clientIp.slice(0, 64),
    create_timestamp: call.startedAt,
    duration_ms: Math.round(call.durationMs),
    refusal: call.refusal ?? null,
    first_byte_ms: call.firstByteMs === undefined || call.firstByteMs === null ? null : Math.round(call.firstByteMs),
    hold_id: call.holdId ?? null,
    relay_ms: Math.round(call.relayMs),
    charge: call.charge ? JSON.stringify(call.charge) : null,
    upstream_model: call.upstreamModel ?? null,
  }
}

// Prepared (db/prepared.ts): one row per relayed call.
const insertCall = prepared((db, row: Required<Insertable<ProxyCallsTable>>) =>
  db.insertInto('proxy_calls').values({
    id: row.id,
    user_id: row.user_id,
    key_id: row.key_id,
    client_id: row.client_id,
    provider_id: row.provider_id,
    api: row.api,
    model: row.model,
    streamed: row.streamed,
    outcome: row.outcome,
    status: row.status,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    cache_read_tokens: row.cache_read_tokens,
    cache_write_tokens: row.cache_write_tokens,
    cache_write_1h_tokens: row.cache_write_1h_tokens,
    web_search_requests: row.web_search_requests,
    points: row.points,
    shortfall_points: row.shortfall_points,
    client_ip: row.client_ip,
    create_timestamp: row.create_timestamp,
    duration_ms: row.duration_ms,
    refusal: row.refusal,
    first_byte_ms: row.first_byte_ms,
    hold_id: row.hold_id,
    relay_ms: row.relay_ms,
    charge: row.charge,
    upstream_model: row.upstream_model,
  }),
)
