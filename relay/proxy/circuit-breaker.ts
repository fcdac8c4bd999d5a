/**
 * A circuit per provider, fed by the calls themselves (docs/decisions/073-upstream-calls.md): no health probes,
 * which would cost money at a paid API. A provider that fails `failures` times in a row within
 * `windowMs` — a failure being what fails a call over (failover.ts) — is open: calls skip it for
 * `coolDownMs`. Then it is half-open: the next call to reach it is its one trial, the other calls
 * still skip it; the trial's success closes the circuit, its failure opens it again.
 *
 * Kept in this process's memory: each relay learns from its own calls, a restart starts closed.
 * Changes are reported (`onChange`) so the operator CLI can show them (provider-circuits.ts).
 */
import type { Clock } from '../clock.ts'

export interface BreakerSettings {
  failures: number
  windowMs: number
  coolDownMs: number
}

export type CircuitState = { state: 'closed' } | { state: 'open'; until: number } | { state: 'half-open' }

/** How a call came to try a provider: its circuit was closed, or the call holds its half-open trial. */
export type Admission = 'closed' | 'trial'

export type AttemptOutcome = 'success' | 'failure' | 'no verdict'

interface Circuit {
  /** Times of the failures in a row, within the window. */
  failures: number[]
  /** Null while closed; open until then, half-open after. */
  openUntil: number | null
  trialInFlight: boolean
}

export class CircuitBreaker {
  readonly #settings: BreakerSettings
  readonly #clock: Clock
  readonly #onChange: (providerId: string, openUntil: number | null) => void
  readonly #circuits = new Map<string, Circuit>()

  constructor(settings: BreakerSettings, clock: Clock, onChange: (providerId: string, openUntil: number | null) => void = () => {}) {
    this.#settings = settings
    this.#clock = clock
    this.#onChange = onChange
  }

  state(providerId: string): CircuitState {
    const openUntil = this.#circuits.get(providerId)?.openUntil ?? null
    if (openUntil === null) return { state: 'closed' }
    return openUntil > this.#clock.now() ? { state: 'open', until: openUntil } : { state: 'half-open' }
  }

  /** Whether a call may try the provider now; null: skip it. A half-open circuit admits one trial at a time. */
  admit(providerId: string): Admission | null {
    const circuit = this.#circuits.get(providerId)
    if (!circuit || circuit.openUntil === null) return 'closed'
    if (circuit.openUntil > this.#clock.now() || circuit.trialInFlight) return null
    circuit.trialInFlight = true
    return 'trial'
  }

  /**
   * Of providers none of which `admit`s, how long until the first cool-down ends: what a call's
   * client is told to wait. A cool-down already over (its trial is in flight) counts as 0.
   */
  reopensInMs(providerIds: readonly string[]): number {
    const now = this.#clock.now()
    return Math.max(0, Math.min(...providerIds.map((id) => this.#circuits.get(id)?.openUntil ?? now)) - now)
  }

  /** What became of an attempt the breaker admitted. */
  record(providerId: string, admission: Admission, outcome: AttemptOutcome): void {
    const circuit = this.#circuits.get(providerId)
    if (outcome === 'no verdict') {
      if (circuit && admission === 'trial') circuit.trialInFlight = false
    } else if (outcome === 'success') {
      if (!circuit) return
      this.#circuits.delete(providerId)
      if (circuit.openUntil !== null) this.#onChange(providerId, null)
    } else if (admission === 'trial') {
      this.#open(providerId)
    } else if ((circuit?.openUntil ?? null) === null) {
      // A failure reported after others opened the circuit changes nothing.
      const now = this.#clock.now()
      const failures = [...(circuit?.failures ?? []).filter((at) => at > now - this.#settings.windowMs), now]
      if (failures.length >= this.#settings.failures) this.#open(providerId)
      else this.#circuits.set(providerId, { failures, openUntil: null, trialInFlight: false })
    }
  }

  #open(providerId: string): void {
    const openUntil = this.#clock.now() + this.#settings.coolDownMs
    this.#circuits.set(providerId, { failures: [], openUntil, trialInFlight: false })
    this.#onChange(providerId, openUntil)
  }
}
