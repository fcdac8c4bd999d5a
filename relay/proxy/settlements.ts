/**
 * Settling relayed calls in groups (docs/decisions/074). When an answer ends, its charge is
 * settled (metering.ts) and the call recorded (call-log.ts) — not in a transaction of its own, but
 * with the other calls that ended within `windowMs` (at most `maxBatch` of them), in one
 * transaction: a group commit. A commit is most of a settlement's cost on SQLite, and it would
 * otherwise fall on the next call the relay serves; grouped, it is shared and taken off the
 * calls' path (docs/architecture.md §10: metering never holds up an answer). The price: a finished call's hold
 * stays frozen up to `windowMs` longer.
 *
 * Correctness does not rest on the grouping: every settlement in a group is the ledger's own
 * guarded `settle`/`refund`, so the group is only a shared BEGIN…COMMIT. Groups are written one
 * at a time, each in account order, so two groups (or a group and a spend) cannot deadlock on
 * PostgreSQL's row locks. A group that fails as a whole is rolled back and its settlements are
 * retried one by one, so one bad settlement cannot take the others down with it. `drain()`
 * writes whatever is waiting (the relay's `close` calls it).
 */
import type { ModelCost } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import type { Logger } from '../logger.ts'
import type { LedgerServices } from '../points/ledger.ts'
import { inTransaction } from '../points/locks.ts'
import type { TokenUsage } from '../points/model-costs.ts'
import { endLeasedCalls } from '../keys/limits.ts'
import { recordCalls, type CallRecord } from './call-log.ts'
import { settleCharges, type Charge } from './metering.ts'

export interface Settlement {
  charge: Charge
  cost: ModelCost
  /** What the answer used; null when no answer came (everything taken goes back). */
  usage: TokenUsage | null
  /** The call's record, but for the points and shortfall, which the settlement decides. */
  call: Omit<CallRecord, 'points' | 'shortfall' | 'clientId'> & { clientId?: string | null }
  /** The key's lease on the call (keys/limits.ts), ended with the record; null when it took none. */
  leaseId?: string | null
}

export interface SettlementQueueOptions {
  /** How long a finished call may wait for others to share its commit. */
  windowMs?: number
  /** A group this large is written at once. */
  maxBatch?: number
}

/** A settlement refused for want of a database is tried again every 5 s for two minutes. */
const outageRetryMs = 5000
const maxOutageRetries = 24

interface Waiting {
  settlement: Settlement
  done: () => void
}

export class SettlementQueue {
  readonly #services: LedgerServices & { logger: Logger }
  readonly #windowMs: number
  readonly #maxBatch: number
  #waiting: Waiting[] = []
  #timer: NodeJS.Timeout | null = null
  /** The group being written; the next one starts after it. */
  #writing: Promise<void> = Promise.resolve()
  readonly #retries = new WeakMap<Settlement, number>()

  constructor(services: LedgerServices & { logger: Logger }, { windowMs = 5, maxBatch = 200 }: SettlementQueueOptions = {}) {
    this.#services = services
    this.#windowMs = windowMs
    this.#maxBatch = maxBatch
  }

  /** Queues a settlement; resolves once it is written (or has failed and been logged). Never rejects. */
  add(settlement: Settlement): Promise<void> {
    return new Promise((done) => {
      this.#waiting.push({ settlement, done })
      if (this.#waiting.length >= this.#maxBatch) void this.#flush()
      else if (!this.#timer) {
        this.#timer = setTimeout(() => void this.#flush(), this.#windowMs)
        // Waiting settlements must not keep a process alive on their own: close() drains them.
        this.#timer.unref()
      }
    })
  }

  /** Writes everything queued so far; resolves when it is on disk. */
  drain(): Promise<void> {
    return this.#flush()
  }

  #flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
    const group = this.#waiting
    this.#waiting = []
    this.#writing = this.#writing.then(() => this.#write(group))
    return this.#writing
  }

  async #write(group: Waiting[]): Promise<void> {
    if (group.length === 0) return
    // Account order: every writer locks accounts in the same order (see the header).
    group.sort((a, b) => {
      const [x, y] = [accountOf(a.settlement.charge), accountOf(b.settlement.charge)]
      return x < y ? -1 : x > y ? 1 : 0
    })
    try {
      await inTransaction(this.#services.db, (trx) => this.#settle(trx, group.map((waiting) => waiting.settlement)))
    } catch {
      for (const { settlement } of group) {
        try {
          await inTransaction(this.#services.db, (trx) => this.#settle(trx, [settlement]))
        } catch (error) {
          if (isDatabaseUnavailable(error) && this.#retryLater(settlement)) continue
          // The answer is out already; the hold stays until the stale-hold sweep gives it back (stale-holds.ts).
          this.#services.logger.error('settling a relayed call failed', {
            key: settlement.call.keyId ?? settlement.call.clientId,
            model: settlement.call.model,
            error: String(error),
          })
        }
      }
    } finally {
      for (const { done } of group) done()
    }
  }

  /**
   * A settlement the database could not take (it is down or unreachable) is queued again a little
   * later, for as long as an outage plausibly lasts, so the user's points are not left frozen until
   * the stale-hold sweep. Safe to repeat: a settlement that did commit before its connection was
   * lost is refused by the ledger's guard the second time. False once the retries are used up.
   */
  #retryLater(settlement: Settlement): boolean {
    const attempts = (this.#retries.get(settlement) ?? 0) + 1
    if (attempts > maxOutageRetries) return false
    this.#retries.set(settlement, attempts)
    setTimeout(() => void this.add(settlement), outageRetryMs).unref()
    return true
  }

  /** Settles the calls' charges (in account order), records the calls and ends their keys' part (leases, counters). */
  async #settle(trx: Database, settlements: readonly Settlement[]): Promise<void> {
    const settled = await settleCharges({ db: trx, clock: this.#services.clock }, settlements)
    const calls = settlements.map(({ charge, call }, i) => ({ ...call, clientId: call.clientId ?? null, holdId: charge.kind === 'hold' ? charge.holdId : null, ...settled[i]! }))
    await recordCalls(trx, calls)
    await endLeasedCalls(trx, calls.map(({ keyId, points }, i) => ({ keyId, leaseId: settlements[i]!.leaseId ?? null, points })), this.#services.clock.now())
  }
}

function accountOf(charge: Charge): string {
  return charge.kind === 'free' ? '' : charge.accountId
}
