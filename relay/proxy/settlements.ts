/**
 * Settling relayed calls in groups (docs/decisions/074-settlements-and-holds.md). When an answer ends, its charge is
 * settled (metering.ts) and the call recorded (call-log.ts) — not in a transaction of its own, but
 * with the other calls that ended within `windowMs` (at most `maxBatch` of them), in one
 * transaction: a group commit. A commit is most of a settlement's cost on SQLite, and it would
 * otherwise fall on the next call the relay serves; grouped, it is shared and taken off the
 * calls' path (docs/architecture.md §10: metering never holds up an answer). The price: a finished call's hold
 * stays frozen up to `windowMs` longer.
 *
 * Correctness does not rest on the grouping: every settlement in a group is the ledger's own
 * guarded `settle`/`refund`, so the group is only a shared BEGIN…COMMIT (on PostgreSQL one
 * statement committed on its own, docs/decisions/108-money-rules-on-postgres.md, then made durable apart from it, docs/decisions/074-settlements-and-holds.md). Groups are written one
 * at a time, each in account order, so two groups (or a group and a spend) cannot deadlock on
 * PostgreSQL's row locks. A group that fails as a whole is rolled back and its settlements are
 * retried one by one, so one bad settlement cannot take the others down with it. `drain()`
 * writes whatever is waiting (the relay's `close` calls it).
 */
import type { ModelCost } from '../contract/points.ts'
import { sql } from 'kysely'
import { newId } from '../db/ids.ts'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import { isDatabaseUnavailable, isLockConflict } from '../db/unavailable.ts'
import type { Logger } from '../logger.ts'
import type { RelayMetrics } from '../telemetry/relay-metrics.ts'
import type { LedgerServices } from '../points/ledger.ts'
import { inTransaction } from '../points/locks.ts'
import type { TokenUsage } from '../points/model-costs.ts'
import { dayOf } from '../contract/days.ts'
import { hourOf } from '../keys/limits.ts'
import { endLeasedCalls } from './call-leases.ts'
import { callRow, recordCalls, type CallRecord } from './call-log.ts'
import { actualCharge, settleCharges, type Charge } from './metering.ts'

export interface Settlement {
  charge: Charge
  cost: ModelCost
  /** What the answer used; null when no answer came (everything taken goes back). */
  usage: TokenUsage | null
  /** The call's record, but for the points and shortfall, which the settlement decides. */
  call: Omit<CallRecord, 'points' | 'shortfall' | 'clientId'> & { clientId?: string | null }
  /** The key's lease on the call (call-leases.ts), ended with the record; null when it took none. */
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
/** One given up over a lock (a deadlock chosen against it, say) is tried again at once, nearly. */
const lockConflictRetryMs = 100

interface Waiting {
  settlement: Settlement
  done: () => void
}

/** `config.databaseAsyncCommit` (DATABASE_ASYNC_COMMIT): settlements need not reach the disk before they count as written. */
type QueueServices = LedgerServices & { logger: Logger; config?: { databaseAsyncCommit?: boolean }; metrics?: RelayMetrics | null }

export class SettlementQueue {
  readonly #services: QueueServices
  readonly #windowMs: number
  readonly #maxBatch: number
  #waiting: Waiting[] = []
  #timer: NodeJS.Timeout | null = null
  /** The group being written; the next one starts after it. */
  #writing: Promise<void> = Promise.resolve()
  readonly #retries = new WeakMap<Settlement, number>()

  constructor(services: QueueServices, { windowMs = 5, maxBatch = 200 }: SettlementQueueOptions = {}) {
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

  /** Settlements queued and not yet being written. */
  get waiting(): number {
    return this.#waiting.length
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
      await this.#settleCounted(group.map((waiting) => waiting.settlement))
    } catch {
      for (const { settlement } of group) {
        try {
          await this.#settleCounted([settlement])
        } catch (error) {
          if (isDatabaseUnavailable(error) && this.#retryLater(settlement, outageRetryMs)) continue
          if (isLockConflict(error) && this.#retryLater(settlement, lockConflictRetryMs)) continue
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
   * A settlement the database could not take (it is down or unreachable, or it rolled the
   * settlement back over a lock) is queued again after `delayMs`, for as long as an outage
   * plausibly lasts, so the call is charged and recorded rather than its points left frozen until
   * the stale-hold sweep gives them back. Safe to repeat: a settlement that did commit before its
   * connection was lost is refused by the ledger's guard the second time. False once the retries
   * are used up.
   */
  #retryLater(settlement: Settlement, delayMs: number): boolean {
    const attempts = (this.#retries.get(settlement) ?? 0) + 1
    if (attempts > maxOutageRetries) return false
    this.#retries.set(settlement, attempts)
    setTimeout(() => void this.add(settlement), delayMs).unref()
    return true
  }

  /** `#settle`, then the points the ledger charged counted in the metrics, once the settlements are written. */
  async #settleCounted(settlements: readonly Settlement[]): Promise<void> {
    const charged = await this.#settle(settlements)
    const { metrics } = this.#services
    if (!metrics) return
    const points = Array.isArray(charged) ? charged : await chargedPoints(this.#services.db, charged.callIds)
    settlements.forEach(({ cost }, i) => metrics.charged(cost.model, points[i] ?? 0))
  }

  /**
   * Settles the calls' charges (in account order), records the calls and ends their keys' part
   * (leases, counters), all or nothing: one statement on PostgreSQL (docs/decisions/108-money-rules-on-postgres.md), a
   * transaction on SQLite.
   */
  #settle(settlements: readonly Settlement[]): Promise<number[] | { callIds: string[] }> {
    const { db, clock } = this.#services
    if (isPostgres(db)) return this.#settleAtOnce(db, clock.now(), settlements)
    return inTransaction(db, (trx) => this.#settleIn(trx, settlements))
  }

  /** Resolves with the points charged per settlement. */
  async #settleIn(trx: Database, settlements: readonly Settlement[]): Promise<number[]> {
    const settled = await settleCharges({ db: trx, clock: this.#services.clock }, settlements)
    const calls = settlements.map(({ charge, call }, i) => ({ ...call, clientId: call.clientId ?? null, holdId: charge.kind === 'hold' ? charge.holdId : null, ...settled[i]! }))
    await recordCalls(trx, calls)
    await endLeasedCalls(trx, calls.map(({ keyId, points }, i) => ({ keyId, leaseId: settlements[i]!.leaseId ?? null, points })), this.#services.clock.now())
    return calls.map(({ points }) => points)
  }

  /**
   * PostgreSQL: `relay_settle_calls` (relay_settle_calls.sql and its `_unflushed` twin, beside this file) does what `#settleIn` does, in one
   * statement whose commit frees the accounts' rows without waiting for the disk; then, unless the
   * operator chose otherwise, a commit that waits for it flushes the group with everything before
   * it (docs/decisions/074-settlements-and-holds.md).
   */
  async #settleAtOnce(db: Database, now: number, settlements: readonly Settlement[]): Promise<{ callIds: string[] }> {
    const callIds = await settleCallsAtOnce(db, now, settlements)
    if (this.#services.config?.databaseAsyncCommit) return { callIds }
    // The group did commit: a failure here must not have it retried (the ledger would refuse it
    // as settled). If the server went down meanwhile, the group may be lost with it, its holds
    // then given back by the stale-hold sweep (docs/decisions/074-settlements-and-holds.md).
    await flushWal(db, {}).catch((error: unknown) => this.#services.logger.warn('a settled group may not be on disk yet', { error: String(error) }))
    return { callIds }
  }
}

function accountOf(charge: Charge): string {
  return charge.kind === 'free' ? '' : charge.accountId
}

/** The settlement group, committed without waiting for the disk (migration 0045); resolves with the calls' record ids. */
async function settleCallsAtOnce(db: Database, now: number, settlements: readonly Settlement[]): Promise<string[]> {
  const holds: string[] = []
  const actuals: number[] = []
  const calls = settlements.map(({ charge, cost, usage, call, leaseId }) => {
    const { charge: lines, actual } = actualCharge(cost, usage)
    if (charge.kind === 'hold') {
      holds.push(charge.holdId)
      actuals.push(actual)
    }
    // The points and the shortfall are the function's to fill in from the hold's settlement.
    const row = callRow({ ...call, clientId: call.clientId ?? null, holdId: charge.kind === 'hold' ? charge.holdId : null, points: 0, shortfall: 0, charge: lines })
    return { ...row, hold: charge.kind === 'hold' ? holds.length : null, actual, lease_id: leaseId ?? null }
  })
  const entries = holds.flatMap(() => [newId(), newId(), newId()])
  await settleCalls(db, { holds, actuals, entries, now, calls: JSON.stringify(calls), day: dayOf(now), hour: hourOf(now) })
  return calls.map((call) => call.id)
}

/**
 * The points the settlement function wrote on each call's record, in the order of `ids`: it
 * decides them (the shortfall) and does not return them. Read only when metrics are kept.
 */
async function chargedPoints(db: Database, ids: readonly string[]): Promise<number[]> {
  const rows = await db.selectFrom('proxy_calls').select(['id', 'points']).where('id', 'in', ids).execute()
  const points = new Map(rows.map((row) => [String(row.id), Number(row.points)]))
  return ids.map((id) => points.get(id) ?? 0)
}

// Prepared (db/prepared.ts): every settlement group.
const settleCalls = prepared((db, args: { holds: string[]; actuals: number[]; entries: string[]; now: number; calls: string; day: number; hour: number }) =>
  db
    .selectFrom(
      sql<{ settled: null }>`relay_settle_calls_unflushed(${args.holds}::bigint[], ${args.actuals}::integer[], ${args.entries}::bigint[], ${args.now}::bigint, ${args.calls}::jsonb, ${args.day}::integer, ${args.hour}::integer)`.as('settled'),
    )
    .selectAll(),
)
/**
 * A commit that waits for the disk, and so flushes every commit before it: a transactional WAL
 * message, the least a transaction can write to have its commit flushed (no row, no lock).
 */
const flushWal = prepared((db) => db.selectNoFrom(sql<string>`pg_logical_emit_message(true, 'relay', 'settled')`.as('lsn')))
