/**
 * The public figures, read from the aggregates only (aggregate.ts): a page view never reads the
 * call log (docs/decisions/120-figures-from-hourly-aggregates.md).
 */
import type { ContentLanguage } from '../contract/languages.ts'
import type { CallFigure, PublicFigures, PublicPricing, PublicStatus } from '../contract/public.ts'
import { publicThresholds } from '../contract/public.ts'
import type { Database } from '../db/open-database.ts'
import { listModelCosts } from '../points/model-costs.ts'
import { listPackages, packageDescription, packageName } from '../subscriptions/packages.ts'
import { ticketPeriodDays } from './aggregate.ts'
import { listIncidents } from './incidents.ts'
import { addHistogram, emptyHistogram, medianBelowMs, parseHistogram, samplesOf } from './latency-histogram.ts'
import { listPriceOf, readListPrices, savingsPercent } from './list-prices.ts'

const hourMs = 3_600_000
export const trafficPeriodDays = 30
/** Incidents shown on the status page: those still open and those that began within this. */
const incidentDays = 14

interface HourRow {
  hour_start: number
  family: string
  calls: number
  failures: number
  latency_buckets: string
}

/** Hours whose start lies within the last `hours` hours (the current, partial hour included). */
async function hoursSince(db: Database, now: number, hours: number): Promise<HourRow[]> {
  const from = Math.floor(now / hourMs) * hourMs - (hours - 1) * hourMs
  return db.selectFrom('public_call_hours').selectAll().where('hour_start', '>=', from).execute()
}

function callFigure(rows: readonly HourRow[]): CallFigure {
  const histogram = emptyHistogram()
  let calls = 0
  let failures = 0
  for (const row of rows) {
    calls += row.calls
    failures += row.failures
    addHistogram(histogram, parseHistogram(row.latency_buckets))
  }
  return { calls, failures, latency_samples: samplesOf(histogram), median_latency_below_ms: medianBelowMs(histogram) }
}

async function updatedAt(db: Database): Promise<{ updated: number; ticketReplyMs: number | null; ticketReplies: number }> {
  const state = await db
    .selectFrom('public_stats_state')
    .select(['update_timestamp', 'ticket_reply_ms', 'ticket_replies'])
    .where('name', '=', 'relay')
    .executeTakeFirstOrThrow()
  return {
    updated: Number(state.update_timestamp),
    ticketReplyMs: state.ticket_reply_ms === null ? null : Number(state.ticket_reply_ms),
    ticketReplies: state.ticket_replies,
  }
}

export async function publicFigures(db: Database, now: number): Promise<PublicFigures> {
  const [rows, state, pricing] = await Promise.all([hoursSince(db, now, trafficPeriodDays * 24), updatedAt(db), publicPricing(db, 'en')])
  const saved = pricing.models.map((model) => model.savings_percent).filter((percent): percent is number => percent !== null)
  return {
    updated_timestamp: state.updated,
    traffic: { period_days: trafficPeriodDays, ...callFigure(rows) },
    tickets: { period_days: ticketPeriodDays, replied: state.ticketReplies, median_first_reply_ms: state.ticketReplyMs },
    savings_percent: saved.length === 0 ? null : Math.max(...saved),
    thresholds: { calls: publicThresholds.calls, latency_samples: publicThresholds.latencySamples, ticket_replies: publicThresholds.ticketReplies },
  }
}

/**
 * Every price and package. A point's worth is a package's price over its points limit (hourly
 * refills left out, so the comparison never flatters: docs/decisions/080-prices.md); models are compared at
 * the best-value paid package's point price.
 */
export async function publicPricing(db: Database, lang: ContentLanguage): Promise<PublicPricing> {
  const [costs, packages, list] = await Promise.all([listModelCosts(db), listPackages(db), readListPrices(db)])
  const priced = packages.map((row) => ({
    code: row.code,
    name: packageName(row, lang),
    description: packageDescription(row, lang),
    kind: row.kind,
    points_limit: row.points_limit,
    hour_points: row.hour_points,
    validity_days: row.validity_days,
    price: row.price,
    fen_per_point: row.price > 0 ? row.price / row.points_limit : null,
  }))
  const best = priced.filter((row) => row.fen_per_point !== null).sort((a, b) => a.fen_per_point! - b.fen_per_point!)[0] ?? null
  return {
    models: costs.map((cost) => {
      const listed = cost.kind === 'variable' ? listPriceOf(list, cost.model) : null
      return {
        ...cost,
        list_input_usd_per_mtok: listed?.input ?? null,
        list_output_usd_per_mtok: listed?.output ?? null,
        savings_percent: best ? savingsPercent(list, cost, best.fen_per_point!) : null,
      }
    }),
    packages: priced,
    best_package_code: best?.code ?? null,
    list_prices_date: list.readOn,
    cny_per_usd: list.fenPerUsd / 100,
  }
}

export async function publicStatus(db: Database, now: number): Promise<PublicStatus> {
  const [week, state, incidents] = await Promise.all([
    hoursSince(db, now, 7 * 24),
    updatedAt(db),
    listIncidents(db, { since: now - incidentDays * 86_400_000 }),
  ])
  const dayFrom = Math.floor(now / hourMs) * hourMs - 23 * hourMs
  const families = [...new Set(week.map((row) => row.family))].sort()
  return {
    updated_timestamp: state.updated,
    families: families.map((family) => {
      const rows = week.filter((row) => row.family === family)
      return {
        family,
        day: { hours: 24, ...callFigure(rows.filter((row) => row.hour_start >= dayFrom)) },
        week: { hours: 7 * 24, ...callFigure(rows) },
      }
    }),
    incidents,
  }
}
