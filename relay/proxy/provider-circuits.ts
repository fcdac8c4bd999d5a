/**
 * The providers' circuits (circuit-breaker.ts) of one relay process, and what the operator CLI
 * learns of them (docs/decisions/073-upstream-calls.md). The circuits live in this process's memory; the CLI runs in
 * another. So the relay reports each circuit that opens to `proxy_provider_circuits`, under an
 * id it draws at start, and deletes the report when the circuit closes and when the relay stops.
 * Circuits change state rarely, so these writes are few; they are made in order, off the calls'
 * path, and a failed one is only logged: routing never reads them.
 */
import type { Clock } from '../clock.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { Logger } from '../logger.ts'
import { CircuitBreaker, type BreakerSettings, type CircuitState } from './circuit-breaker.ts'

type CircuitDeps = { db: Database; clock: Clock; logger: Logger }

export class ProviderCircuits {
  readonly breaker: CircuitBreaker
  readonly #relayId = newId()
  readonly #deps: CircuitDeps
  #writes: Promise<void> = Promise.resolve()

  constructor(deps: CircuitDeps, settings: BreakerSettings) {
    this.#deps = deps
    this.breaker = new CircuitBreaker(settings, deps.clock, (providerId, openUntil) => this.#changed(providerId, openUntil))
  }

  /** Waits for the reports being written, then withdraws this relay's. */
  async close(): Promise<void> {
    this.#write(() => this.#deps.db.deleteFrom('proxy_provider_circuits').where('relay_id', '=', this.#relayId).execute())
    await this.#writes
  }

  #changed(providerId: string, openUntil: number | null): void {
    const { db, clock, logger } = this.#deps
    if (openUntil === null) {
      logger.info('provider circuit closed', { provider: providerId })
      this.#write(() => db.deleteFrom('proxy_provider_circuits').where('relay_id', '=', this.#relayId).where('provider_id', '=', providerId).execute())
      return
    }
    logger.warn('provider circuit opened: calls skip it', { provider: providerId, until: new Date(openUntil).toISOString() })
    const row = { relay_id: this.#relayId, provider_id: providerId, open_until: openUntil, update_timestamp: clock.now() }
    this.#write(() =>
      db
        .insertInto('proxy_provider_circuits')
        .values(row)
        .onConflict((oc) => oc.columns(['relay_id', 'provider_id']).doUpdateSet({ open_until: row.open_until, update_timestamp: row.update_timestamp }))
        .execute(),
    )
  }

  #write(statement: () => Promise<unknown>): void {
    this.#writes = this.#writes.then(statement).then(
      () => {},
      (error: unknown) => this.#deps.logger.warn('provider circuit report not written', { error: error instanceof Error ? error.message : String(error) }),
    )
  }
}

/** A provider's circuit over every relay that reported one: open while any relay has it open. */
export type ReportedCircuit = CircuitState & { relays: number }

/** Providers without a report are closed everywhere. */
export async function reportedCircuits(db: Database, now: number): Promise<Map<string, ReportedCircuit>> {
  const rows = await db.selectFrom('proxy_provider_circuits').select(['provider_id', 'open_until']).execute()
  const circuits = new Map<string, ReportedCircuit>()
  for (const { provider_id: id, open_until: until } of rows) {
    const known = circuits.get(id)
    if (until > now) {
      circuits.set(id, known?.state === 'open' ? { state: 'open', until: Math.max(known.until, until), relays: known.relays + 1 } : { state: 'open', until, relays: 1 })
    } else if (!known) {
      // Its cool-down is over: that relay's next call to it is the trial.
      circuits.set(id, { state: 'half-open', relays: 1 })
    }
  }
  return circuits
}
