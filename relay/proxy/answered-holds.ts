/**
 * A call whose answer has started is charged, however it ends (docs/decisions/072-how-a-call-is-charged.md) — even
 * when its relay dies before the settlement is written (docs/decisions/074-settlements-and-holds.md). Before the
 * answer reaches the client, the call's settlement as known then (the usage metered so far, the
 * call's record) is written on its hold (`points_holds.answered`). The relay's own settlement
 * replaces it as usual; if the relay is lost first, the stale-hold sweep (stale-holds.ts) settles
 * the hold with it instead of giving the points back, and so records the call. Either way the
 * ledger's guarded settle lets exactly one of them through, and clears the mark: it is needed only
 * while the hold is open.
 */
import { sql } from 'kysely'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { Settlement } from './settlements.ts'

/** What is written on the hold: the settlement but its charge, which the hold itself is. */
type AnsweredState = Omit<Settlement, 'charge'>

/** Writes the settlement a lost relay's hold is to be settled with; no-op once the hold is settled. */
export async function markAnswered(db: Database, holdId: string, settlement: AnsweredState): Promise<void> {
  const args = { holdId, answered: JSON.stringify(settlement) }
  await (isPostgres(db) ? markOnPostgres(db, args) : mark(db, args))
}

/** The settlement written on a hold by `markAnswered`, its charge the hold's. */
export function answeredSettlement(hold: { id: string; account_id: string; amount: number; answered: string }): Settlement {
  const state = JSON.parse(hold.answered) as AnsweredState
  return { ...state, charge: { kind: 'hold', holdId: hold.id, accountId: hold.account_id, points: hold.amount } }
}

// Prepared (db/prepared.ts): once per answered call, on its path.
const mark = prepared((db, args: { holdId: string; answered: string }) =>
  db.updateTable('points_holds').set({ answered: args.answered }).where('id', '=', args.holdId).where('settled_timestamp', 'is', null),
)
/**
 * On PostgreSQL its commit does not wait for the disk, as a freeze's does not
 * (docs/decisions/074-settlements-and-holds.md): it must outlive the relay, not the database server. `set_config`
 * with `is_local` governs the commit of the statement's own transaction.
 */
const markOnPostgres = prepared((db, args: { holdId: string; answered: string }) =>
  db
    .with('unflushed', (db) => db.selectNoFrom(sql<string>`set_config('synchronous_commit', 'off', true)`.as('setting')))
    .updateTable('points_holds')
    .from('unflushed')
    .set({ answered: args.answered })
    .where('id', '=', args.holdId)
    .where('settled_timestamp', 'is', null),
)
