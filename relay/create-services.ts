import { RateLimiter } from './http/rate-limit.ts'
import { CallsInFlight } from './proxy/calls-in-flight.ts'
import { ProviderCircuits } from './proxy/provider-circuits.ts'
import { SettlementQueue } from './proxy/settlements.ts'
import { referralRewardHook } from './referral/rewards.ts'
import { processRelayMetrics } from './telemetry/relay-metrics.ts'
import type { RelayDeps, RelayServices } from './services.ts'

export function createServices(deps: RelayDeps): RelayServices {
  const { config } = deps
  const metrics = config.metricsToken ? processRelayMetrics() : null
  return {
    ...deps,
    limiter: new RateLimiter(deps.db, deps.clock, deps.logger),
    redeemHooks: [referralRewardHook(deps)],
    settlements: new SettlementQueue({ ...deps, metrics }),
    calls: new CallsInFlight(),
    circuits: new ProviderCircuits(deps, {
      failures: config.providerBreakerFailures,
      windowMs: config.providerBreakerWindowMs,
      coolDownMs: config.providerBreakerCoolDownMs,
    }),
    metrics,
  }
}
