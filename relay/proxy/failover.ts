/**
 * Tries the providers in order until one answers (docs/decisions/073-upstream-calls.md). A provider fails
 * over — before any byte has reached the client, since the client's response starts only with
 * the answer chosen here — on a connection error, a connect or idle timeout, a 5xx, a 429 (its
 * quota, not the client's) or a 401/403/408 (its key or its gateway, not the client's). Any
 * other status is the provider's answer to the client's request and is passed on.
 *
 * Each failure feeds the provider's circuit (circuit-breaker.ts), and providers whose circuit is
 * open are skipped; when all are, the call is refused at once (503) with a Retry-After at the
 * end of the first cool-down, when a half-open trial lets one call through. After a
 * failure a retry might cure — a connection error, a 429, 529 or other 5xx — the next provider
 * is tried after a jittered, growing pause, and only while the retry deadline allows; after a
 * timeout or a 401/403/408 the next one is tried at once, as waiting would not help. Each
 * provider is tried at most once per call: the client's own retries come after.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from '../logger.ts'
import type { RelayMetrics } from '../telemetry/relay-metrics.ts'
import type { Admission, CircuitBreaker } from './circuit-breaker.ts'
import { ProxyError } from './client-errors.ts'
import type { Provider } from './providers.ts'
import { sendUpstream, UpstreamError, type UpstreamRequest, type UpstreamResponse } from './upstream.ts'

export interface Forwarded {
  provider: Provider
  response: UpstreamResponse
}

/** The client went away before any provider answered. */
export class ClientGone extends Error {
  constructor(readonly providerId: string) {
    super('the client went away')
    this.name = 'ClientGone'
  }
}

/** No provider answered; `providerId` is the last one tried, null when every circuit was open. */
export class ProvidersFailed extends ProxyError {
  constructor(
    error: ProxyError,
    readonly providerId: string | null,
  ) {
    super(error.kind, error.message, error.headers)
  }
}

export function failsOver(status: number): boolean {
  return status >= 500 || status === 429 || status === 401 || status === 403 || status === 408
}

/** A failure another provider, a moment later, may well not have. */
function worthRetrying(failure: number | UpstreamError): boolean {
  return typeof failure === 'number' ? failure >= 500 || failure === 429 : failure.kind === 'connect' || failure.kind === 'network'
}

export interface RetryPolicy {
  /** No retry starts later than this after the call's first attempt began. */
  deadlineMs: number
  /** The first pause; each next one doubles, up to 16 times this, each drawn between half and all of it. */
  backoffMs: number
}

export function retryPause({ backoffMs }: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = backoffMs * 2 ** Math.min(retry, 4)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

export class Failover {
  constructor(
    readonly breaker: CircuitBreaker,
    readonly retry: RetryPolicy,
    readonly logger: Logger,
    readonly metrics: RelayMetrics | null = null,
  ) {}

  /** `providers` in the order to try them; `gone` aborts when the client leaves. */
  async forward(providers: readonly Provider[], build: (provider: Provider) => UpstreamRequest, gone: AbortSignal): Promise<Forwarded> {
    // Made only when needed: an Error's stack trace costs microseconds on every call otherwise.
    let failure: ProxyError | null = null
    let last: Provider | null = null
    let retries = 0
    let retry = false
    const started = performance.now()
    const untried = [...providers]
    while (untried.length > 0) {
      if (retry) {
        if (!untried.some((p) => this.breaker.state(p.id).state !== 'open')) break
        const pause = retryPause(this.retry, retries++)
        if (performance.now() - started + pause > this.retry.deadlineMs) break
        try {
          await sleep(pause, undefined, { signal: gone })
        } catch {
          throw new ClientGone(last?.id ?? '')
        }
      }
      const next = this.#admit(untried)
      if (!next) {
        if (last === null) throw this.#allOpen(untried)
        break
      }
      const { provider, admission } = next
      untried.splice(untried.indexOf(provider), 1)
      if (last) this.metrics?.failedOver(last.label)
      last = provider
      let response: UpstreamResponse
      try {
        response = await sendUpstream(build(provider))
      } catch (error) {
        const failed = error instanceof UpstreamError && error.kind !== 'client_gone'
        this.breaker.record(provider.id, admission, failed ? 'failure' : 'no verdict')
        if (!(error instanceof UpstreamError)) throw error
        if (error.kind === 'client_gone') throw new ClientGone(provider.id)
        this.logger.warn('provider failed', { provider: provider.id, error: error.kind, detail: error.message })
        this.metrics?.providerFailed(provider.label, error.kind)
        failure =
          error.kind === 'timeout'
            ? new ProxyError('provider_timeout', 'The upstream provider did not answer in time.')
            : new ProxyError('provider_failed', 'The upstream provider could not be reached.')
        retry = worthRetrying(error)
        continue
      }
      if (!failsOver(response.status)) {
        this.breaker.record(provider.id, admission, 'success')
        return { provider, response }
      }
      this.breaker.record(provider.id, admission, 'failure')
      // Drained, not read: its body may name the provider's key.
      response.body.resume()
      this.logger.warn('provider failed', { provider: provider.id, status: response.status })
      this.metrics?.providerFailed(provider.label, `status_${response.status}`)
      failure =
        response.status === 529 || response.status === 503
          ? new ProxyError('overloaded', 'The upstream providers are overloaded; try again shortly.')
          : new ProxyError('provider_failed', `The upstream provider failed (status ${response.status}).`)
      retry = worthRetrying(response.status)
    }
    throw new ProvidersFailed(failure ?? new ProxyError('no_provider', 'No provider is available for this model.'), last?.id ?? null)
  }

  /** The first provider whose circuit lets a call through. */
  #admit(untried: readonly Provider[]): { provider: Provider; admission: Admission } | null {
    for (const provider of untried) {
      const admission = this.breaker.admit(provider.id)
      if (admission) return { provider, admission }
    }
    return null
  }

  /**
   * Every provider of the call has an open circuit (or its one trial in flight): no attempt, a
   * refusal with the wait until the first cool-down ends (docs/decisions/073-upstream-calls.md).
   */
  #allOpen(providers: readonly Provider[]): ProvidersFailed {
    const seconds = Math.max(1, Math.ceil(this.breaker.reopensInMs(providers.map((p) => p.id)) / 1000))
    const error = new ProxyError('providers_unavailable', `Every upstream provider of this model is failing; the relay tries one again in ${seconds} s.`, { 'retry-after': String(seconds) })
    return new ProvidersFailed(error, null)
  }
}
