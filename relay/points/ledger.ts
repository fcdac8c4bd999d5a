/**
 * The points ledger: the only way other areas change a balance (docs/architecture.md §6).
 *
 * Rules every function keeps: each change appends one `points_ledger` row in the same
 * transaction as the balance update; a balance always equals the sum of its account's rows and
 * is never negative (a guarded UPDATE, see entries.ts, plus row locks, see locks.ts); amounts are
 * positive integers up to `maxPointsChange` (a RangeError otherwise: a programming error, not a
 * user's). Before a change the user's plan is brought up to date (due hourly refills, expiry).
 *
 * Whose account: a user's points live in the account of their plan: their personal
 * subscription's, or their team's shared pool (rows then carry the member's user id, which is
 * how members' own use is counted). Every function takes `{ db, clock }` (RelayServices
 * fits); pass a transaction as `db` to take part in it (e.g. `{ ...services, db: trx }` in a
 * redeem hook), else each call runs in its own transaction.
 *
 *   grant(s, { userId, amount, reason })            → Entry | null   `earned` (referral rewards,
 *       operator grants); null when the user holds no package in force. Not capped at the limit.
 *   spend(s, { userId, amount, model, reason? })    → Entry          `consumed` (an operator's deduction);
 *       422 points_insufficient when the balance is short or no package is in force.
 *   freeze(s, { userId, amount, model, atLeast? })  → Hold           reserves points for a call in
 *       flight (metered relay): `frozen` row, balance down, frozen points up; 422 as spend. With
 *       `atLeast`, a balance short of `amount` but holding `atLeast` is frozen whole instead.
 *   settle(s, { holdId, actual })                   → Settlement     ends a hold: `unfrozen` row
 *       giving the whole reservation back, then `consumed` for `actual` (0 allowed), charged only
 *       up to what the balance holds (`charged` says how much). If the account's subscription
 *       ended meanwhile, what is left expires. A hold settles once (409 conflict after).
 */
import { sql } from 'kysely'
import type { Clock } from '../clock.ts'
import { isPostgres, type Database } from '../db/open-database.ts'
import { holdNotOpen } from '../db/functions.ts'
import { newId } from '../db/ids.ts'
import { prepared } from '../db/prepared.ts'
import { RelayError } from '../http/relay-error.ts'
import { lockedPlan } from './catch-up.ts'
import { appendEntry, maxPointsChange, moveCallLine, type Entry } from './entries.ts'
import { inTransaction, lockUser } from './locks.ts'
import { isInForce, type Plan } from './plan.ts'

export { maxPointsChange, type Entry } from './entries.ts'

export interface LedgerServices {
  db: Database
  clock: Clock
  /** The relay's own: its `instance` names the holds it takes (absent: holds of no relay). */
  config?: { instance: string }
}

export interface Hold {
  holdId: string
  accountId: string
  /** Points frozen. */
  amount: number
  /** Spendable balance after the reservation. */
  balance: number
}

export interface Settlement {
  /** Points consumed: `actual`, or less when the balance could not cover it. */
  charged: number
  balance: number
}

export function grant(
  { db, clock }: LedgerServices,
  input: { userId: string; amount: number; reason: string },
): Promise<Entry | null> {
  checkAmount(input.amount)
  return withPlanInForce(db, input.userId, clock.now(), async (trx, plan, now) =>
    plan
      ? appendEntry(trx, { accountId: plan.account.id, userId: input.userId, type: 'earned', change: input.amount, reason: input.reason, now })
      : null,
  )
}

export function spend(
  { db, clock }: LedgerServices,
  input: { userId: string; amount: number; model: string | null; reason?: string | null },
): Promise<Entry> {
  checkAmount(input.amount)
  return withPlanInForce(db, input.userId, clock.now(), async (trx, plan, now) => {
    if (!plan) throw new RelayError('points_insufficient', 'no package in force')
    return appendEntry(trx, {
      accountId: plan.account.id,
      userId: input.userId,
      type: 'consumed',
      change: -input.amount,
      model: input.model,
      reason: input.reason,
      now,
    })
  })
}

/**
 * `liveKey` (PostgreSQL only): the API key the call came with, when the relay took it from its
 * cache (keys/service.ts); the same statement confirms it is still live, and refuses as
 * `authenticateApiKey` would (RelayError `unauthenticated`, `api_key_disabled`,
 * `api_key_expired`) when it is not, freezing nothing (docs/decisions/108-money-rules-on-postgres.md).
 */
export function freeze(
  { db, clock, config }: LedgerServices,
  input: { userId: string; amount: number; model: string | null; atLeast?: number; liveKey?: string | null },
): Promise<Hold> {
  checkAmount(input.amount)
  if (input.atLeast !== undefined) checkAmount(input.atLeast)
  const liveKey = input.liveKey ?? null
  // A programming error: only PostgreSQL's keys are cached.
  if (liveKey !== null && !isPostgres(db)) throw new Error('freeze: liveKey is confirmed on PostgreSQL only')
  const owner = config?.instance ?? null
  const fullPath = () =>
    withPlanInForce(db, input.userId, clock.now(), async (trx, plan, now) => {
      if (!plan) throw new RelayError('points_insufficient', 'no package in force')
      const { balance } = plan.account
      // The balance is read under the account's lock: it cannot change before the update below.
      const amount = input.atLeast !== undefined && balance < input.amount && balance >= input.atLeast ? balance : input.amount
      const holdId = newId()
      await insertHold(trx, { id: holdId, accountId: plan.account.id, userId: input.userId, amount, model: input.model, now, owner })
      const entry = await appendEntry(trx, {
        accountId: plan.account.id,
        userId: input.userId,
        type: 'frozen',
        change: -amount,
        frozenChange: amount,
        model: input.model,
        holdId,
        now,
      })
      return { holdId, accountId: plan.account.id, amount, balance: entry.balance }
    })
  if (!isPostgres(db)) return fullPath()
  // PostgreSQL: one statement, committed at once, when nothing but the freeze is due (docs/decisions/108-money-rules-on-postgres.md).
  const holdId = newId()
  const args = { userId: input.userId, liveKey, amount: input.amount, atLeast: input.atLeast ?? input.amount, model: input.model, holdId, entryId: newId(), now: clock.now(), owner }
  return freezeAtOnce(db, args).then(({ rows: [row] }) => {
    if (!row) return fullPath()
    if (row.refusal !== null) throw new RelayError(row.refusal)
    return { holdId, accountId: row.account_id!, amount: row.amount!, balance: row.balance! }
  })
}

export function settle(services: LedgerServices, input: { holdId: string; actual: number }): Promise<Settlement> {
  return settleAll(services, [input]).then(([settlement]) => settlement!)
}

/**
 * Settles holds in the order given, in the caller's transaction if `db` is one (proxy/settlements.ts
 * passes a group of calls' holds, sorted by account); one statement on PostgreSQL
 * (docs/decisions/108-money-rules-on-postgres.md). Throws as `settle` on the first hold that is not open.
 */
export function settleAll({ db, clock }: LedgerServices, inputs: ReadonlyArray<{ holdId: string; actual: number }>): Promise<Settlement[]> {
  for (const { actual } of inputs) {
    if (!Number.isSafeInteger(actual) || actual < 0 || actual > maxPointsChange) throw new RangeError(`points amount out of bounds: ${actual}`)
  }
  if (isPostgres(db)) {
    const entries = inputs.flatMap(() => [newId(), newId(), newId()])
    const args = { holds: inputs.map((i) => i.holdId), actuals: inputs.map((i) => i.actual), entries, now: clock.now() }
    return settleAtOnce(db, args).then(
      ({ rows }) => rows.map(({ charged, balance }) => ({ charged, balance })),
      async (error: { code?: string; detail?: string }) => {
        if (error.code !== holdNotOpen) throw error
        // Inside a transaction the failed statement has aborted it: no reading why.
        throw db.isTransaction ? new RelayError('conflict', 'hold not open') : await notOpen(db, error.detail!)
      },
    )
  }
  return inTransaction(db, async (trx) => {
    const settled: Settlement[] = []
    for (const input of inputs) settled.push(await settleOne(trx, input, clock.now()))
    return settled
  })
}

async function settleOne(trx: Database, input: { holdId: string; actual: number }, now: number): Promise<Settlement> {
  // Guarded: of two settlements of one hold, only the first finds it open. The account needs no
  // lock of its own: the first balance update below locks its row until the end.
  const [hold] = (await closeHold(trx, { id: input.holdId, now })).rows
  if (!hold) throw await notOpen(trx, input.holdId)
  const base = { accountId: hold.account_id, userId: hold.user_id, model: hold.model, holdId: hold.id, now }
  const unfrozen = await appendEntry(trx, { ...base, type: 'unfrozen', change: hold.amount, frozenChange: -hold.amount })
  await moveCallLine(trx, hold, unfrozen.at)
  let { balance } = unfrozen
  const charged = Math.min(input.actual, balance)
  if (charged > 0) ({ balance } = await appendEntry(trx, { ...base, type: 'consumed', change: -charged }))
  if (balance > 0 && !(await accountInForce(trx, hold.account_id))) {
    ;({ balance } = await appendEntry(trx, { ...base, type: 'expired', change: -balance, holdId: null }))
  }
  return { charged, balance }
}

/** Why a hold could not be settled: it was already (409), or never existed (404). */
async function notOpen(db: Database, holdId: string): Promise<RelayError> {
  const exists = await db.selectFrom('points_holds').select('id').where('id', '=', holdId).executeTakeFirst()
  return exists ? new RelayError('conflict', 'hold already settled') : new RelayError('not_found', 'hold not found')
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > maxPointsChange) {
    throw new RangeError(`points amount out of bounds: ${amount}`)
  }
}

/**
 * Runs `fn` in a transaction holding the user's lock and their plan's account lock, with the
 * plan caught up; `plan` is null when no package is in force.
 */
function withPlanInForce<T>(
  db: Database,
  userId: string,
  now: number,
  fn: (trx: Database, plan: Plan | null, now: number) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (trx) => {
    await lockUser(trx, userId)
    const plan = await lockedPlan(trx, userId, now)
    return fn(trx, plan && isInForce(plan.subscription) ? plan : null, now)
  })
}

/** Whether the account still belongs to a subscription in force (personal) or a team with one. */
async function accountInForce(trx: Database, accountId: string): Promise<boolean> {
  return (await subscriptionInForce(trx, { accountId })).rows.length > 0
}

// Prepared (db/prepared.ts): every relayed call freezes and settles.
const insertHold = prepared((db, args: { id: string; accountId: string; userId: string; amount: number; model: string | null; now: number; owner: string | null }) =>
  db.insertInto('points_holds').values({
    id: args.id,
    account_id: args.accountId,
    user_id: args.userId,
    amount: args.amount,
    model: args.model,
    create_timestamp: args.now,
    settled_timestamp: null,
    owner: args.owner,
  }),
)
// The answered mark (proxy/answered-holds.ts) goes with the settlement: a kilobyte a call, never read again.
const closeHold = prepared((db, args: { id: string; now: number }) =>
  db.updateTable('points_holds').set({ settled_timestamp: args.now, answered: null }).where('id', '=', args.id).where('settled_timestamp', 'is', null).returningAll(),
)
// PostgreSQL's functions relay_freeze.sql and relay_settle.sql, beside this file (docs/decisions/108-money-rules-on-postgres.md).
const freezeAtOnce = prepared(
  (db, args: { userId: string; liveKey: string | null; amount: number; atLeast: number; model: string | null; holdId: string; entryId: string; now: number; owner: string | null }) =>
    db
      .selectFrom(
        sql<{
          account_id: string | null
          amount: number | null
          balance: number | null
          refusal: 'unauthenticated' | 'api_key_disabled' | 'api_key_expired' | null
        }>`relay_freeze(${args.userId}::bigint, ${args.liveKey}::bigint, ${args.amount}::integer, ${args.atLeast}::integer, ${args.model}::varchar, ${args.holdId}::bigint, ${args.entryId}::bigint, ${args.now}::bigint, ${args.owner}::varchar)`.as('f'),
      )
      .selectAll(),
)
const settleAtOnce = prepared((db, args: { holds: string[]; actuals: number[]; entries: string[]; now: number }) =>
  db
    .selectFrom(
      sql<{ hold_id: string; charged: number; balance: number }>`relay_settle(${args.holds}::bigint[], ${args.actuals}::integer[], ${args.entries}::bigint[], ${args.now}::bigint)`.as('s'),
    )
    .selectAll(),
)
const subscriptionInForce = prepared((db, args: { accountId: string }) =>
  db
    .selectFrom('points_accounts as a')
    .innerJoin('subscriptions as s', (join) =>
      join.on((eb) => eb.or([eb('s.id', '=', eb.ref('a.subscription_id')), eb.and([eb('a.subscription_id', 'is', null), eb('s.team_id', '=', eb.ref('a.team_id'))])])),
    )
    .select('s.id')
    .where('a.id', '=', args.accountId)
    .where('s.status', '=', 'normal')
    .limit(1),
)
