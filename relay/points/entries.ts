/**
 * The one place a balance changes: a guarded UPDATE of the account and its ledger row, which the
 * caller runs in the same transaction (the public API is ledger.ts).
 */
import { sql, type Insertable } from 'kysely'
import { maxPointsChange, type PointsEntryType } from '../contract/points.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { PointsLedgerTable } from '../db/schema.ts'
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
  const { rows } = await applyChange(trx, { accountId: input.accountId, change: input.change, frozenChange })
  const updated = rows[0]
  if (!updated) throw new RelayError('points_insufficient')
  const entryId = newId()
  await insertEntry(trx, {
    id: entryId,
    account_id: input.accountId,
    user_id: input.userId,
    type: input.type,
    change: input.change,
    balance_after: updated.balance,
    model: input.model ?? null,
    reason: input.reason ?? null,
    hold_id: input.holdId ?? null,
    create_timestamp: input.now,
  })
  return { entryId, accountId: input.accountId, balance: updated.balance }
}

// Prepared (db/prepared.ts): every relayed call appends two or three rows.
const applyChange = prepared((db, args: { accountId: string; change: number; frozenChange: number }) =>
  db
    .updateTable('points_accounts')
    .set({
      balance: sql<number>`balance + ${args.change}`,
      frozen: sql<number>`frozen + ${args.frozenChange}`,
    })
    .where('id', '=', args.accountId)
    .where(sql<boolean>`balance + ${args.change} >= 0`)
    .where(sql<boolean>`frozen + ${args.frozenChange} >= 0`)
    .returning('balance'),
)

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
  }),
)
