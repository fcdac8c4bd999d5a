/**
 * The one place a balance changes: a guarded UPDATE of the account and its ledger row, which the
 * caller runs in the same transaction (the public API is ledger.ts). On PostgreSQL both are one
 * statement, a data-modifying CTE (docs/decisions/108-money-rules-on-postgres.md): every relayed call appends two or three
 * rows, and each statement there is a network round trip, where SQLite's are function calls (and
 * SQLite has no data-modifying CTEs).
 */
import { sql, type Insertable, type QueryCreator, type Selectable } from 'kysely'
import { maxPointsChange, type PointsEntryType } from '../contract/points.ts'
import { newId } from '../db/ids.ts'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { PointsLedgerTable, PointsUsageDaysTable, Tables } from '../db/schema.ts'
import { dayOf } from '../contract/days.ts'
import { startsHistoryLine, usageDayOf } from './usage-days.ts'
import { RelayError } from '../http/relay-error.ts'

export { maxPointsChange }

export interface EntryInput {
  accountId: string
  /** Who caused it; null for pool-wide rows of a team account (refills, expiry). */
  userId: string | null
  type: PointsEntryType
  /** Signed change of the spendable balance. */
  change: number
  /** Signed change of the frozen points (freeze and settle only). */
  frozenChange?: number
  model?: string | null
  reason?: string | null
  holdId?: string | null
  now: number
}

export interface Entry {
  entryId: string
  accountId: string
  /** The spendable balance after this row. */
  balance: number
  /** The row's time: the account's, never before its previous row (`guardedChange`). */
  at: number
}

/**
 * Applies `change` if the balance stays ≥ 0 (and frozen points too), else throws 422
 * `points_insufficient`; appends the ledger row with the resulting balance. The guard sits in the
 * UPDATE itself, so it holds even for a caller that forgot the row lock.
 */
export async function appendEntry(trx: Database, input: EntryInput): Promise<Entry> {
  const frozenChange = input.frozenChange ?? 0
  if (!Number.isSafeInteger(input.change) || Math.abs(input.change) > maxPointsChange || !Number.isSafeInteger(frozenChange)) {
    throw new RangeError(`points change out of bounds: ${input.change}`)
  }
  const entryId = newId()
  const row = {
    id: entryId,
    account_id: input.accountId,
    user_id: input.userId,
    type: input.type,
    change: input.change,
    model: input.model ?? null,
    reason: input.reason ?? null,
    hold_id: input.holdId ?? null,
  }
  // The user's day (usage-days.ts), when the row counts there: a line of their history, or points consumed.
  const day = input.userId === null ? null : { consumed: consumedBy(input), lines: startsHistoryLine({ type: input.type, holdId: row.hold_id }) ? 1 : 0 }
  const countsForDay = day !== null && (day.consumed !== 0 || day.lines !== 0)
  let recorded: { balance: number; at: number } | undefined
  if (isPostgres(trx)) {
    const args = { ...row, frozenChange, consumed: consumedBy(input), now: input.now }
    const result = countsForDay ? await changeRecordAndCount(trx, { ...args, lines: day.lines }) : await changeAndRecord(trx, args)
    const inserted = result.rows[0]
    recorded = inserted && { balance: inserted.balance_after, at: inserted.create_timestamp }
  } else {
    const updated = (await applyChange(trx, { accountId: input.accountId, change: input.change, frozenChange, consumed: consumedBy(input), now: input.now })).rows[0]
    if (updated) {
      await insertEntry(trx, { ...row, balance_after: updated.balance, create_timestamp: updated.last_entry_timestamp, seq: updated.entries })
      if (countsForDay) await countDay(trx, { user_id: input.userId!, day: dayOf(updated.last_entry_timestamp), consumed: day.consumed, lines: day.lines })
      recorded = { balance: updated.balance, at: updated.last_entry_timestamp }
    }
  }
  if (recorded === undefined) throw new RelayError('points_insufficient')
  return { entryId, accountId: input.accountId, ...recorded }
}

/**
 * A call's line of the history sits at its newest row (history.ts): its `frozen` row counted it
 * on that row's day (appendEntry); its settlement, at `at`, moves it when that is a later day
 * (docs/decisions/111-bounded-history-reads.md). SQLite's settlement calls this; PostgreSQL's `relay_settle` does the
 * same (relay_settle.sql). The hold was taken at or before its frozen row, so a hold taken on the
 * settlement's day needs no look at that row.
 */
export async function moveCallLine(trx: Database, hold: { id: string; user_id: string; create_timestamp: number }, at: number): Promise<void> {
  const day = dayOf(at)
  if (dayOf(hold.create_timestamp) === day) return
  const frozen = await trx.selectFrom('points_ledger').select('create_timestamp').where('hold_id', '=', hold.id).where('type', '=', 'frozen').executeTakeFirstOrThrow()
  const opened = dayOf(frozen.create_timestamp)
  if (opened === day) return
  await countDay(trx, { user_id: hold.user_id, day: opened, consumed: 0, lines: -1 })
  await countDay(trx, { user_id: hold.user_id, day, consumed: 0, lines: 1 })
}

// Prepared (db/prepared.ts): every relayed call appends two or three rows. The row's place and
// time come from the account's own UPDATE, under its row lock: commit order (docs/decisions/020-points-ledger.md).
const applyChange = prepared((db, args: AccountChange) => guardedChange(db, args))

interface AccountChange {
  accountId: string
  change: number
  frozenChange: number
  /** What the row adds to the account's `consumed` total: −change for a `consumed` row, else 0. */
  consumed: number
  now: number
}

function consumedBy(input: EntryInput): number {
  return input.type === 'consumed' ? -input.change : 0
}

/** The account's UPDATE, alone (SQLite) or as the CTE feeding the ledger row (PostgreSQL). */
function guardedChange(db: QueryCreator<Tables>, args: AccountChange) {
  return db
    .updateTable('points_accounts')
    .set({
      balance: sql<number>`balance + ${args.change}`,
      frozen: sql<number>`frozen + ${args.frozenChange}`,
      entries: sql<number>`entries + 1`,
      // The running total the screens read instead of summing every call (docs/decisions/020-points-ledger.md).
      consumed: sql<number>`consumed + ${args.consumed}`,
      // Never before the account's previous row, whatever the clocks of several relays say.
      last_entry_timestamp: sql<number>`case when last_entry_timestamp > ${args.now} then last_entry_timestamp else ${args.now} end`,
    })
    .where('id', '=', args.accountId)
    .where(sql<boolean>`balance + ${args.change} >= 0`)
    .where(sql<boolean>`frozen + ${args.frozenChange} >= 0`)
    .returning(['balance', 'entries', 'last_entry_timestamp'])
}

type RecordArgs = Omit<Required<Insertable<PointsLedgerTable>>, 'balance_after' | 'create_timestamp' | 'seq'> & { frozenChange: number; consumed: number; now: number }

/** PostgreSQL: `applyChange` and `insertEntry` in one statement; no row when the guard refused the change. */
const changeAndRecord = prepared((db, args: RecordArgs) => recordAfter(db.with('updated', (qc) => guardedChangeOf(qc, args)), args))

/** PostgreSQL: the same, and the user's day counted (`countDay`), still one round trip. */
const changeRecordAndCount = prepared((db, args: RecordArgs & { lines: number }) =>
  recordAfter(
    db
      .with('updated', (qc) => guardedChangeOf(qc, args))
      .with('counted', (qc) =>
        qc
          .insertInto('points_usage_days')
          .columns(['user_id', 'day', 'consumed', 'lines'])
          .expression((eb) =>
            eb
              .selectFrom('updated')
              .select([
                sql<string>`${args.user_id}::bigint`.as('user_id'),
                sql<number>`(${usageDayOf(sql.ref('updated.last_entry_timestamp'))})::integer`.as('day'),
                sql<number>`${args.consumed}::integer`.as('consumed'),
                sql<number>`${args.lines}::integer`.as('lines'),
              ]),
          )
          .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet(dayIncrement)),
      ) as unknown as QueryCreator<Updated>, // the second CTE adds nothing the INSERT reads
    args,
  ),
)

function guardedChangeOf(db: QueryCreator<Tables>, args: RecordArgs) {
  return guardedChange(db, { accountId: args.account_id, change: args.change, frozenChange: args.frozenChange, consumed: args.consumed, now: args.now })
}

/** The ledger row, from the account's UPDATE (`updated`). */
type Updated = Tables & { updated: { balance: number; entries: number; last_entry_timestamp: number } }

function recordAfter(db: QueryCreator<Updated>, args: RecordArgs) {
  return (
    db
      .insertInto('points_ledger')
      .columns(['id', 'account_id', 'user_id', 'type', 'change', 'balance_after', 'model', 'reason', 'hold_id', 'create_timestamp', 'seq'])
      // Typed casts: a parameter in a select list would otherwise be text.
      .expression((eb) =>
        eb
          .selectFrom('updated')
          .select([
            sql<string>`${args.id}::bigint`.as('id'),
            sql<string>`${args.account_id}::bigint`.as('account_id'),
            sql<string | null>`${args.user_id}::bigint`.as('user_id'),
            sql<PointsEntryType>`${args.type}::varchar`.as('type'),
            sql<number>`${args.change}::integer`.as('change'),
            'updated.balance',
            sql<string | null>`${args.model}::varchar`.as('model'),
            sql<string | null>`${args.reason}::varchar`.as('reason'),
            sql<string | null>`${args.hold_id}::bigint`.as('hold_id'),
            'updated.last_entry_timestamp',
            'updated.entries',
          ]),
      )
      .returning(['balance_after', 'create_timestamp'])
  )
}

/** Adds to a user's day, creating it on its first row (SQLite; PostgreSQL folds it into `changeRecordAndCount`). */
const countDay = prepared((db, row: Selectable<PointsUsageDaysTable>) =>
  db
    .insertInto('points_usage_days')
    .values({ user_id: row.user_id, day: row.day, consumed: row.consumed, lines: row.lines })
    .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet(dayIncrement)),
)

const dayIncrement = {
  consumed: sql<number>`points_usage_days.consumed + excluded.consumed`,
  lines: sql<number>`points_usage_days.lines + excluded.lines`,
}

const insertEntry = prepared((db, row: Required<Insertable<PointsLedgerTable>>) =>
  db.insertInto('points_ledger').values({
    id: row.id,
    account_id: row.account_id,
    user_id: row.user_id,
    type: row.type,
    change: row.change,
    balance_after: row.balance_after,
    model: row.model,
    reason: row.reason,
    hold_id: row.hold_id,
    create_timestamp: row.create_timestamp,
    seq: row.seq,
  }),
)
