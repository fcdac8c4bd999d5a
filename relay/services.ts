import type { Clock } from './clock.ts'
import type { RelayConfig } from './config.ts'
import type { Database } from './db/open-database.ts'
import type { RateLimiter } from './http/rate-limit.ts'
import type { Logger } from './logger.ts'
import type { Mailer } from './mail/mailer.ts'
import type { CallsInFlight } from './proxy/calls-in-flight.ts'
import type { ProviderCircuits } from './proxy/provider-circuits.ts'
import type { SettlementQueue } from './proxy/settlements.ts'
import type { RelayMetrics } from './telemetry/relay-metrics.ts'
import type { Tracing } from './telemetry/spans.ts'
import type { RedeemHook } from './subscriptions/redeem-hooks.ts'

/** What the relay is built from: everything that touches the outside world is passed in. */
export interface RelayDeps {
  db: Database
  clock: Clock
  mailer: Mailer
  config: RelayConfig
  logger: Logger
  /** Spans of relayed calls (telemetry/tracing.ts); absent or null when tracing is off. */
  tracing?: Tracing | null
}

/**
 * The dependencies plus what the relay derives from them once (create-services.ts); routes and
 * CLI commands get this. Types only, so any module may name them without importing the builder.
 */
export interface RelayServices extends RelayDeps {
  limiter: RateLimiter
  /** Run inside every successful redemption's transaction (subscriptions/redeem-hooks.ts). */
  redeemHooks: RedeemHook[]
  /** Relayed calls' settlements, written in groups (proxy/settlements.ts); drained on close. */
  settlements: SettlementQueue
  /** Relayed calls in flight, drained before the process stops (proxy/calls-in-flight.ts). */
  calls: CallsInFlight
  /** This process's circuit per upstream provider (proxy/provider-circuits.ts); its reports withdrawn on close. */
  circuits: ProviderCircuits
  /** The Prometheus families (telemetry/relay-metrics.ts); null, and nothing counted, without METRICS_TOKEN. */
  metrics: RelayMetrics | null
}
