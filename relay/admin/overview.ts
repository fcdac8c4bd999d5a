/**
 * The console's overview and provider figures (docs/decisions/120-figures-from-hourly-aggregates.md). A console view never reads the
 * call log, which may hold millions of rows: a job in each relay process adds the calls recorded
 * since its last run to hourly rows per model and provider (`ops_call_hours`) and to the set of
 * users and keys that called in each hour (`ops_active_hours`), with the public figures' cursor
 * discipline (public-stats/aggregate.ts) on a cursor of its own. A view sums at most
 * 720 hours × models × providers rows, and counts distinct users and keys over the hours asked.
 */
import { sql } from 'kysely'
import type { AdminOverviewSeries, AdminProvider, CallFigures, OverviewPeriod } from '../contract/admin-ops.ts'
import { outcomeLabelOf, overviewPeriodHours } from '../contract/admin-ops.ts'
import { dayMs, dayOf, dayStart, hourMs } from '../contract/days.ts'
import { ticketStatuses, type TicketStatus } from '../contract/tickets.ts'
import { lastIdAt } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { OpsCallHoursTable } from '../db/schema.ts'
import { periodicSweep } from '../periodic-sweep.ts'
import { reportedCircuits } from '../proxy/provider-circuits.ts'
import { ProviderKeyBox } from '../proxy/provider-keys.ts'
import { distinctProviderLabels, listProviders } from '../proxy/providers.ts'
import { aggregateCalls, hourOf, type AggregatedCall, type RefreshOptions } from '../public-stats/aggregate.ts'
import { addHistogram, bucketOf, emptyHistogram, parseHistogram, percentileBelowMs, samplesOf, type Histogram } from '../public-stats/latency-histogram.ts'
import type { RelayServices } from '../services.ts'

const refreshEveryMs = 60_000
/** The provider figures beside each provider: its last day. */
const recentHours = 24

/* ---------- The aggregation ---------- */

/** An hour's counts while they are added up: its row of ops_call_hours, the histograms as arrays. */
type HourCounts = Omit<OpsCallHoursTable, 'latency_buckets' | 'first_byte_buckets'> & { latency: Histogram; firstByte: Histogram }

/** The usage an hour sums, by kind: what the reconciliation report prices (admin/reconciliation.ts). */
export const tokenCounts = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'cache_write_1h_tokens', 'web_search_requests'] as const

/** The columns an outcome label is counted in. */
const outcomeColumns = { answered: 'answered', failed: 'failures', cut: 'cut', refused: 'refused' } as const

/** The counts an hour adds to its row. */
const countColumns = ['calls', 'answered', 'failures', 'cut', 'refused', 'relay_refused'] as const

async function addOperatorHours(trx: Database, calls: AggregatedCall[]): Promise<void> {
  const hours = new Map<string, HourCounts>()
  const active = new Map<string, { hour_start: number; user_id: string; key_id: string }>()
  for (const call of calls) {
    const hour_start = hourOf(call.create_timestamp)
    const provider_id = call.provider_id ?? '0'
    const key = `${hour_start} ${provider_id} ${call.model}`
    let hour = hours.get(key)
    if (!hour) {
      hour = {
        hour_start,
        model: call.model,
        provider_id,
        calls: 0,
        answered: 0,
        failures: 0,
        cut: 0,
        refused: 0,
        relay_refused: 0,
        points: 0,
        ...Object.fromEntries(tokenCounts.map((column) => [column, 0])),
        latency: emptyHistogram(),
        firstByte: emptyHistogram(),
      } as HourCounts
      hours.set(key, hour)
    }
    if (call.refusal !== null) {
      hour.relay_refused += 1
    } else {
      hour.calls += 1
      hour[outcomeColumns[outcomeLabelOf[call.outcome]]] += 1
    }
    hour.points += Number(call.points)
    for (const column of tokenCounts) hour[column] += Number(call[column])
    if (call.relay_ms !== null) hour.latency[bucketOf(call.relay_ms)]! += 1
    if (call.first_byte_ms !== null) hour.firstByte[bucketOf(call.first_byte_ms)]! += 1
    const keyId = call.key_id ?? '0'
    active.set(`${hour_start} ${call.user_id} ${keyId}`, { hour_start, user_id: call.user_id, key_id: keyId })
  }
  for (const hour of hours.values()) {
    const where = { hour_start: hour.hour_start, model: hour.model, provider_id: hour.provider_id }
    const existing = await trx
      .selectFrom('ops_call_hours')
      .selectAll()
      .where('hour_start', '=', where.hour_start)
      .where('model', '=', where.model)
      .where('provider_id', '=', where.provider_id)
      .executeTakeFirst()
    const { latency, firstByte, ...counts } = hour
    if (existing) {
      await trx
        .updateTable('ops_call_hours')
        .set({
          ...Object.fromEntries(countColumns.map((column) => [column, existing[column] + counts[column]])),
          points: Number(existing.points) + counts.points,
          ...Object.fromEntries(tokenCounts.map((column) => [column, Number(existing[column]) + counts[column]])),
          latency_buckets: JSON.stringify(addHistogram(parseHistogram(existing.latency_buckets), latency)),
          first_byte_buckets: JSON.stringify(addHistogram(parseHistogram(existing.first_byte_buckets), firstByte)),
        })
        .where('hour_start', '=', where.hour_start)
        .where('model', '=', where.model)
        .where('provider_id', '=', where.provider_id)
        .execute()
    } else {
      await trx
        .insertInto('ops_call_hours')
        .values({ ...counts, latency_buckets: JSON.stringify(latency), first_byte_buckets: JSON.stringify(firstByte) })
        .execute()
    }
  }
  const rows = [...active.values()]
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto('ops_active_hours')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['hour_start', 'user_id', 'key_id']).doNothing())
      .execute()
  }
}

/** Aggregates the calls recorded since the last run; returns how many. */
export async function refreshOperatorStats(services: Pick<RelayServices, 'db' | 'clock'>, { settleLagMs = 60_000 }: RefreshOptions = {}): Promise<number> {
  const { db, clock } = services
  // Ids are minted on wall time (db/ids.ts), not the injected clock.
  const added = await aggregateCalls(db, 'ops', lastIdAt(Date.now() - settleLagMs), addOperatorHours)
  await db.updateTable('public_stats_state').set({ update_timestamp: clock.now() }).where('name', '=', 'ops').execute()
  return added
}

/** Every minute, so the console lags its traffic by about two. */
export function keepOperatorStatsFresh(services: RelayServices): { stop(): Promise<void> } {
  return periodicSweep(services.logger, 'operator figures refresh', refreshEveryMs, () => refreshOperatorStats(services))
}

/* ---------- Reading ---------- */

function firstHour(now: number, hours: number): number {
  return hourOf(now) - (hours - 1) * hourMs
}

async function hoursSince(db: Database, from: number): Promise<OpsCallHoursTable[]> {
  return db
    .selectFrom('ops_call_hours')
    .selectAll()
    .where('hour_start', '>=', from)
    .execute()
}

export function callFigures(rows: readonly OpsCallHoursTable[]): CallFigures {
  const latency = emptyHistogram()
  const firstByte = emptyHistogram()
  const figures = { calls: 0, answered: 0, failures: 0, cut: 0, refused: 0, relay_refused: 0, points: 0, input_tokens: 0, output_tokens: 0 }
  for (const row of rows) {
    for (const column of countColumns) figures[column] += row[column]
    figures.points += Number(row.points)
    figures.input_tokens += Number(row.input_tokens)
    figures.output_tokens += Number(row.output_tokens)
    addHistogram(latency, parseHistogram(row.latency_buckets))
    addHistogram(firstByte, parseHistogram(row.first_byte_buckets))
  }
  return {
    ...figures,
    latency_samples: samplesOf(latency),
    relay_p50_below_ms: percentileBelowMs(latency, 0.5),
    relay_p95_below_ms: percentileBelowMs(latency, 0.95),
    first_byte_p50_below_ms: percentileBelowMs(firstByte, 0.5),
  }
}

function groupBy<K>(rows: readonly OpsCallHoursTable[], keyOf: (row: OpsCallHoursTable) => K): Map<K, OpsCallHoursTable[]> {
  const groups = new Map<K, OpsCallHoursTable[]>()
  for (const row of rows) {
    const group = groups.get(keyOf(row))
    if (group) group.push(row)
    else groups.set(keyOf(row), [row])
  }
  return groups
}

const byCallsDesc = (a: { calls: number }, b: { calls: number }) => b.calls - a.calls

/** Distinct users and keys (API keys; OAuth calls count their user only) over the hours from `from`. */
async function activeSince(db: Database, from: number): Promise<{ users: number; keys: number }> {
  const row = await db
    .selectFrom('ops_active_hours')
    .select([sql<number | string>`count(distinct user_id)`.as('users'), sql<number | string>`count(distinct case when key_id <> 0 then key_id end)`.as('keys')])
    .where('hour_start', '>=', from)
    .executeTakeFirstOrThrow()
  return { users: Number(row.users), keys: Number(row.keys) }
}

async function ticketCounts(db: Database): Promise<Array<{ status: TicketStatus; count: number }>> {
  const rows = await db
    .selectFrom('tickets')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy('status')
    .execute()
  const counts = new Map(rows.map((row) => [row.status, Number(row.count)]))
  return ticketStatuses.map((status) => ({ status, count: counts.get(status) ?? 0 }))
}

/** Every provider with its circuit as the relays report it and the figures of its last day. */
export async function adminProviders(services: Pick<RelayServices, 'db' | 'clock' | 'config'>, recentRows?: readonly OpsCallHoursTable[]): Promise<AdminProvider[]> {
  const { db, clock, config } = services
  const now = clock.now()
  const [providers, circuits, rows] = await Promise.all([
    listProviders(db, new ProviderKeyBox(config.jwtSecrets)),
    reportedCircuits(db, now),
    recentRows ?? hoursSince(db, firstHour(now, recentHours)),
  ])
  const byProvider = groupBy(rows, (row) => String(row.provider_id))
  const labels = distinctProviderLabels(providers)
  return providers.map((provider) => {
    const circuit = circuits.get(provider.id)
    return {
      ...provider,
      label: labels.get(provider.id)!,
      circuit: {
        state: circuit?.state ?? 'closed',
        open_until: circuit?.state === 'open' ? circuit.until : null,
        relays: circuit?.relays ?? 0,
      },
      recent: callFigures(byProvider.get(provider.id) ?? []),
    }
  })
}

export async function operatorOverview(services: Pick<RelayServices, 'db' | 'clock' | 'config'>, period: OverviewPeriod) {
  const { db, clock } = services
  const now = clock.now()
  const from = firstHour(now, overviewPeriodHours[period])
  const [rows, active, tickets, state] = await Promise.all([
    hoursSince(db, from),
    activeSince(db, from),
    ticketCounts(db),
    db.selectFrom('public_stats_state').select('update_timestamp').where('name', '=', 'ops').executeTakeFirstOrThrow(),
  ])
  // Every period covers the providers' last day: no second read.
  const recentFrom = firstHour(now, recentHours)
  const providers = await adminProviders(services, rows.filter((row) => Number(row.hour_start) >= recentFrom))
  const names = new Map(providers.map((p) => [p.id, p.label]))
  return {
    period,
    from_timestamp: from,
    updated_timestamp: Number(state.update_timestamp),
    totals: { ...callFigures(rows), active_users: active.users, active_keys: active.keys },
    by_model: [...groupBy(rows, (row) => row.model)].map(([model, group]) => ({ model, ...callFigures(group) })).sort(byCallsDesc),
    by_provider: [...groupBy(rows, (row) => String(row.provider_id))]
      .map(([id, group]) => ({ provider_id: id === '0' ? null : id, provider: id === '0' ? null : (names.get(id) ?? null), ...callFigures(group) }))
      .sort(byCallsDesc),
    tickets,
    providers,
  }
}

/**
 * The overview's figures over time: per hour over 24 hours, per UTC+8 day over longer periods
 * (an hour never straddles two such days: the offset is whole hours).
 */
export async function overviewSeries(
  services: Pick<RelayServices, 'db' | 'clock'>,
  query: { period: OverviewPeriod; model?: string; provider_id?: string },
): Promise<AdminOverviewSeries> {
  const now = services.clock.now()
  const from = firstHour(now, overviewPeriodHours[query.period])
  let read = services.db.selectFrom('ops_call_hours').selectAll().where('hour_start', '>=', from)
  if (query.model) read = read.where('model', '=', query.model)
  if (query.provider_id) read = read.where('provider_id', '=', query.provider_id)
  const rows = await read.execute()
  const bucket = query.period === '24h' ? 'hour' : 'day'
  const startOf = bucket === 'hour' ? (ms: number) => ms : (ms: number) => dayStart(dayOf(ms))
  const step = bucket === 'hour' ? hourMs : dayMs
  const buckets = new Map<number, AdminOverviewSeries['buckets'][number]>()
  for (let start = startOf(from); start <= now; start += step) {
    buckets.set(start, { start, calls: 0, failures: 0, relay_refused: 0, points: 0, input_tokens: 0, output_tokens: 0 })
  }
  for (const row of rows) {
    const figures = buckets.get(startOf(Number(row.hour_start)))
    // An hour aggregated ahead of the clock (a relay whose clock runs fast) has no bucket yet.
    if (!figures) continue
    figures.calls += row.calls
    figures.failures += row.failures
    figures.relay_refused += row.relay_refused
    figures.points += Number(row.points)
    figures.input_tokens += Number(row.input_tokens)
    figures.output_tokens += Number(row.output_tokens)
  }
  return { period: query.period, bucket, from_timestamp: from, buckets: [...buckets.values()] }
}
