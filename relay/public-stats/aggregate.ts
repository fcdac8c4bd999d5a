/**
 * The aggregates behind the public figures (docs/decisions/120-figures-from-hourly-aggregates.md), kept by a job in each relay
 * process so that no page view ever reads the call log: every five minutes it adds the calls
 * recorded since its last run to `public_call_hours` (per hour and model family: calls, failures,
 * a histogram of the relay's added latency) and recomputes the ticket reply figure.
 *
 * Calls are read in id order from the last id aggregated. A call's id is minted when it is
 * recorded, in a settlement group's transaction that commits within moments; ids minted in the
 * last `settleLagMs` are left for the next run, so a group still committing is not skipped. Several
 * relays may run the job at once: the cursor only moves from the value a run started from, so the
 * second run's transaction changes nothing and is rolled back.
 */
import type { Selectable } from 'kysely'
import { lastIdAt } from '../db/ids.ts'
import type { ProxyCallsTable } from '../db/schema.ts'
import { periodicSweep } from '../periodic-sweep.ts'
import type { Database } from '../db/open-database.ts'
import type { RelayServices } from '../services.ts'
import { modelFamily } from './families.ts'
import { addHistogram, bucketOf, emptyHistogram, parseHistogram, type Histogram } from './latency-histogram.ts'

const refreshEveryMs = 5 * 60_000
const hourMs = 3_600_000
/** Calls per transaction; a run goes on until it has caught up. */
const batch = 2000
/** The ticket figure's period. */
export const ticketPeriodDays = 30

export interface RefreshOptions {
  /** Calls recorded this recently are left for the next run (see the header). */
  settleLagMs?: number
}

/** Aggregates the calls recorded since the last run and recomputes the ticket figure; returns the calls added. */
export async function refreshPublicStats(services: Pick<RelayServices, 'db' | 'clock'>, { settleLagMs = 60_000 }: RefreshOptions = {}): Promise<number> {
  const { db, clock } = services
  // Ids are minted on wall time (db/ids.ts), not the injected clock.
  const upTo = lastIdAt(Date.now() - settleLagMs)
  const added = await aggregateCalls(db, 'relay', upTo, addPublicHours)
  await refreshTicketFigure(db, clock.now())
  return added
}

const aggregatedColumns = [
  'id',
  'user_id',
  'key_id',
  'provider_id',
  'model',
  'outcome',
  'refusal',
  'points',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'cache_write_1h_tokens',
  'web_search_requests',
  'relay_ms',
  'first_byte_ms',
  'create_timestamp',
] as const

/** A call as the aggregations read it. */
export type AggregatedCall = Pick<
  Selectable<ProxyCallsTable>,
  | 'id'
  | 'user_id'
  | 'key_id'
  | 'provider_id'
  | 'model'
  | 'outcome'
  | 'refusal'
  | 'points'
  | 'input_tokens'
  | 'output_tokens'
  | 'cache_read_tokens'
  | 'cache_write_tokens'
  | 'cache_write_1h_tokens'
  | 'web_search_requests'
  | 'relay_ms'
  | 'first_byte_ms'
  | 'create_timestamp'
>

/**
 * Feeds the calls recorded after `cursor`'s last call, up to `upTo`, to `add`, `batch` per
 * transaction, until caught up; returns how many it added. The public figures and the operator
 * console's (admin/overview.ts) each keep their own cursor in `public_stats_state`.
 */
export async function aggregateCalls(
  db: Database,
  cursor: 'relay' | 'ops',
  upTo: string,
  add: (trx: Database, calls: AggregatedCall[]) => Promise<void>,
): Promise<number> {
  let added = 0
  for (;;) {
    const taken = await aggregateBatch(db, cursor, upTo, add)
    added += taken
    if (taken < batch) return added
  }
}

async function aggregateBatch(db: Database, cursor: 'relay' | 'ops', upTo: string, add: (trx: Database, calls: AggregatedCall[]) => Promise<void>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { last_call_id: from } = await trx.selectFrom('public_stats_state').select('last_call_id').where('name', '=', cursor).executeTakeFirstOrThrow()
    const calls = await trx
      .selectFrom('proxy_calls')
      .select(aggregatedColumns)
      .where('id', '>', from)
      .where('id', '<=', upTo)
      .orderBy('id')
      .limit(batch)
      .execute()
    if (calls.length === 0) return 0
    const moved = await trx
      .updateTable('public_stats_state')
      .set({ last_call_id: calls[calls.length - 1]!.id })
      .where('name', '=', cursor)
      .where('last_call_id', '=', from)
      .executeTakeFirst()
    // Another relay took these calls first: add nothing, it did.
    if (moved.numUpdatedRows === 0n) return 0
    await add(trx, calls)
    return calls.length
  })
}

async function addPublicHours(trx: Database, calls: AggregatedCall[]): Promise<void> {
  const hours = new Map<string, { hour_start: number; family: string; calls: number; failures: number; histogram: Histogram }>()
  for (const call of calls) {
    const hour_start = hourOf(call.create_timestamp)
    const family = modelFamily(call.model)
    const key = `${hour_start} ${family}`
    let hour = hours.get(key)
    if (!hour) hours.set(key, (hour = { hour_start, family, calls: 0, failures: 0, histogram: emptyHistogram() }))
    hour.calls += 1
    // Only the relay's own failures: a provider's refusal of the request ('refused') is the client's.
    if (call.outcome === 'failed') hour.failures += 1
    if (call.relay_ms !== null) hour.histogram[bucketOf(call.relay_ms)]! += 1
  }
  for (const hour of hours.values()) {
    const existing = await trx
      .selectFrom('public_call_hours')
      .select(['calls', 'failures', 'latency_buckets'])
      .where('hour_start', '=', hour.hour_start)
      .where('family', '=', hour.family)
      .executeTakeFirst()
    if (existing) {
      await trx
        .updateTable('public_call_hours')
        .set({
          calls: existing.calls + hour.calls,
          failures: existing.failures + hour.failures,
          latency_buckets: JSON.stringify(addHistogram(parseHistogram(existing.latency_buckets), hour.histogram)),
        })
        .where('hour_start', '=', hour.hour_start)
        .where('family', '=', hour.family)
        .execute()
    } else {
      const { histogram, ...counts } = hour
      await trx
        .insertInto('public_call_hours')
        .values({ ...counts, latency_buckets: JSON.stringify(histogram) })
        .execute()
    }
  }
}

/** The start of the UTC hour `ms` falls in. */
export function hourOf(ms: number): number {
  return Math.floor(ms / hourMs) * hourMs
}

/**
 * The median time from a ticket being opened to an operator's first message, over the tickets a
 * person opened in the last `ticketPeriodDays` that have one (the relay's own tickets are left
 * out). With an even count, the lower of the two middle values.
 */
async function refreshTicketFigure(db: Database, now: number): Promise<void> {
  const rows = await db
    .selectFrom('tickets')
    .innerJoin('ticket_messages', 'ticket_messages.ticket_id', 'tickets.id')
    .select(['tickets.id', 'tickets.create_timestamp as opened'])
    .select((eb) => eb.fn.min('ticket_messages.create_timestamp').as('replied'))
    .where('ticket_messages.author_kind', '=', 'admin')
    .where('tickets.system_kind', 'is', null)
    .where('tickets.create_timestamp', '>=', now - ticketPeriodDays * 86_400_000)
    .groupBy(['tickets.id', 'tickets.create_timestamp'])
    .execute()
  const waits = rows.map((row) => Number(row.replied) - Number(row.opened)).sort((a, b) => a - b)
  await db
    .updateTable('public_stats_state')
    .set({
      ticket_reply_ms: waits.length === 0 ? null : waits[Math.floor((waits.length - 1) / 2)]!,
      ticket_replies: waits.length,
      update_timestamp: now,
    })
    .where('name', '=', 'relay')
    .execute()
}

/** Refreshes now and every five minutes until stopped. */
export function keepPublicStatsFresh(services: RelayServices): { stop(): Promise<void> } {
  return periodicSweep(services.logger, 'public figures refresh', refreshEveryMs, () => refreshPublicStats(services))
}
