/**
 * The relay's Prometheus families (docs/observability.md lists them with their labels). Labels stay
 * bounded: a model is named by the price row that priced it (an exact model or a pattern, so the
 * price table bounds them), a provider by its console name (`kind · host`), never a user, key or
 * request id.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import { outcomeLabelOf } from '../contract/admin-ops.ts'
import type { TokenUsage } from '../points/model-costs.ts'
import type { CallOutcome } from '../proxy/call-log.ts'
import type { ClientApi } from '../proxy/client-errors.ts'
import { postgresPoolFigures } from '../db/postgres-pool.ts'
import { processRegistry } from './registry.ts'

/** The `api` label: the API a client called (count_tokens apart: it is free). */
const apiLabels: Record<ClientApi | 'count_tokens', string> = { anthropic: 'messages', openai: 'chat', responses: 'responses', gemini: 'gemini', count_tokens: 'count_tokens' }


/** Where no provider was reached, or no price row priced the model. */
export const none = 'none'
export const otherModel = 'other'

export interface EndedCall {
  api: ClientApi | 'count_tokens'
  /** The price row that priced the call. */
  model: string
  provider: string
  outcome: CallOutcome
  durationMs: number
  /** From the call's arrival to the provider's answer starting; absent when none came. */
  firstByteMs?: number | null
  /** The relay's own time before forwarding (call-log.ts `relayMs`). */
  relayMs: number
  usage: TokenUsage | null
}

const seconds = (ms: number) => ms / 1000

export class RelayMetrics {
  readonly #calls: Counter<'api' | 'model' | 'provider' | 'outcome'>
  readonly #duration: Histogram<'api' | 'model' | 'provider'>
  readonly #firstToken: Histogram<'api' | 'model' | 'provider'>
  readonly #overhead: Histogram<'api'>
  readonly #tokens: Counter<'model' | 'kind'>
  readonly #points: Counter<'model'>
  readonly #webSearches: Counter<'model'>
  readonly #refusals: Counter<'reason'>
  readonly #refusalsUnrecorded: Counter<'reason'>
  readonly #providerErrors: Counter<'provider' | 'class'>
  readonly #failovers: Counter<'provider'>
  readonly #inFlight: Gauge<'api'>
  readonly #sources = new Set<MetricsSource>()

  constructor(readonly registry: Registry) {
    const registers = [registry]
    this.#calls = new Counter({ name: 'relay_calls_total', help: 'Relayed calls by how they ended (one per usage-log line).', labelNames: ['api', 'model', 'provider', 'outcome'], registers })
    this.#duration = new Histogram({
      name: 'relay_call_duration_seconds',
      help: 'From a call arriving to its answer ending.',
      labelNames: ['api', 'model', 'provider'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    })
    this.#firstToken = new Histogram({
      name: 'relay_time_to_first_token_seconds',
      help: "From a call arriving to the provider's answer starting.",
      labelNames: ['api', 'model', 'provider'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    })
    this.#overhead = new Histogram({
      name: 'relay_overhead_seconds',
      help: "Time the relay itself spends on a call before forwarding it (the client's upload excluded).",
      labelNames: ['api'],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers,
    })
    this.#tokens = new Counter({ name: 'relay_tokens_total', help: 'Tokens the providers reported, by kind.', labelNames: ['model', 'kind'], registers })
    this.#webSearches = new Counter({ name: 'relay_web_searches_total', help: 'Hosted web searches the providers reported.', labelNames: ['model'], registers })
    this.#points = new Counter({ name: 'relay_points_charged_total', help: 'Points the ledger charged for relayed calls.', labelNames: ['model'], registers })
    this.#refusals = new Counter({ name: 'relay_refusals_total', help: 'Calls the relay refused before any provider was asked.', labelNames: ['reason'], registers })
    this.#refusalsUnrecorded = new Counter({
      name: 'relay_refusals_unrecorded_total',
      help: "Refusals past their caller's share of the call log this minute: answered, not recorded.",
      labelNames: ['reason'],
      registers,
    })
    this.#providerErrors = new Counter({ name: 'relay_provider_errors_total', help: 'Failed attempts at a provider, by class.', labelNames: ['provider', 'class'], registers })
    this.#failovers = new Counter({ name: 'relay_failovers_total', help: 'Calls moved on from a failed provider to the next.', labelNames: ['provider'], registers })
    this.#inFlight = new Gauge({ name: 'relay_calls_in_flight', help: 'Relayed calls being answered now.', labelNames: ['api'], registers })
    const sources = this.#sources
    new Gauge({
      name: 'relay_settlement_queue_depth',
      help: 'Ended calls whose settlement is waiting to be written.',
      registers,
      collect() {
        let waiting = 0
        for (const source of sources) waiting += source.settlementsWaiting()
        this.set(waiting)
      },
    })
    new Gauge({
      name: 'relay_stale_holds',
      help: 'Holds open longer than STALE_HOLD_MINUTES: calls a lost relay took, given back by the next sweep.',
      registers,
      // Read from the database, which every worker sees whole: the largest, not the sum.
      aggregator: 'max',
      async collect() {
        let stale: number | null = null
        for (const source of sources) {
          try {
            stale = Math.max(stale ?? 0, await source.staleHolds())
          } catch {
            // Its database is down (or closed): the scrape still answers, with what the others say or the last figure.
          }
        }
        if (stale !== null) this.set(stale)
      },
    })
    const pool = (name: string, help: string, figure: (figures: ReturnType<typeof postgresPoolFigures>) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(figure(postgresPoolFigures()))
        },
      })
    pool('relay_db_pool_connections_in_use', "PostgreSQL connections of this process's pool checked out now (0 on SQLite).", (f) => f.inUse)
    pool('relay_db_pool_connections', "PostgreSQL connections of this process's pool open now, in use or idle (0 on SQLite).", (f) => f.total)
    pool('relay_db_pool_waiting', "Requests of this process waiting for a PostgreSQL connection (0 on SQLite).", (f) => f.waiting)
    new Gauge({
      name: 'relay_provider_circuit_open',
      help: "1 while a provider's circuit is open in this process: calls skip it.",
      labelNames: ['provider'],
      registers,
      collect() {
        this.reset()
        for (const source of sources) for (const [provider, open] of source.circuits()) this.set({ provider }, open ? 1 : 0)
      },
    })
  }

  /** A call began; the returned function ends it (once). */
  started(api: ClientApi): () => void {
    const labels = { api: apiLabels[api] }
    this.#inFlight.inc(labels)
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.#inFlight.dec(labels)
    }
  }

  ended(call: EndedCall): void {
    const labels = { api: apiLabels[call.api], model: call.model, provider: call.provider }
    this.#calls.inc({ ...labels, outcome: outcomeLabelOf[call.outcome] })
    this.#duration.observe(labels, seconds(call.durationMs))
    if (call.firstByteMs !== undefined && call.firstByteMs !== null) this.#firstToken.observe(labels, seconds(call.firstByteMs))
    this.#overhead.observe({ api: labels.api }, seconds(call.relayMs))
    const usage = call.usage
    if (!usage) return
    const count = (kind: string, tokens: number | undefined) => {
      if (tokens) this.#tokens.inc({ model: call.model, kind }, tokens)
    }
    count('input', usage.input_tokens)
    count('output', usage.output_tokens)
    count('cache_read', usage.cache_read_tokens)
    count('cache_write_5m', usage.cache_write_tokens)
    count('cache_write_1h', usage.cache_write_1h_tokens)
    if (usage.web_search_requests) this.#webSearches.inc({ model: call.model }, usage.web_search_requests)
  }

  /** What the ledger charged for a settled call. */
  charged(model: string, points: number): void {
    if (points > 0) this.#points.inc({ model }, points)
  }

  refused(reason: string): void {
    this.#refusals.inc({ reason })
  }

  refusalUnrecorded(reason: string): void {
    this.#refusalsUnrecorded.inc({ reason })
  }

  providerFailed(provider: string, errorClass: string): void {
    this.#providerErrors.inc({ provider, class: errorClass })
  }

  failedOver(provider: string): void {
    this.#failovers.inc({ provider })
  }

  /**
   * A relay of this process, read on every scrape for the gauges (several relays share one
   * process in tests). Returns the function that withdraws it.
   */
  attach(source: MetricsSource): () => void {
    this.#sources.add(source)
    return () => this.#sources.delete(source)
  }
}

/** What the gauges read from one relay when scraped. */
export interface MetricsSource {
  /** Settlements waiting to be written (proxy/settlements.ts). */
  settlementsWaiting(): number
  /** Each enabled provider by its label, with whether its circuit is open in this process. */
  circuits(): Iterable<readonly [string, boolean]>
  /** Holds open longer than the stale-hold limit (proxy/stale-holds.ts). */
  staleHolds(): Promise<number>
}

let instance: RelayMetrics | undefined

/** The process's relay families, on its registry (made on first use: only with METRICS_TOKEN). */
export function processRelayMetrics(): RelayMetrics {
  instance ??= new RelayMetrics(processRegistry())
  return instance
}
