/**
 * Transactions and row locks for balance changes (docs/architecture.md §6). On SQLite every transaction
 * already holds the database's write lock from its first statement (BEGIN IMMEDIATE, see
 * db/open-database.ts); on PostgreSQL the rows a change depends on are locked.
 * Lock order, to rule out deadlocks: the user row first, then their personal account, then a
 * team account. FOR NO KEY UPDATE rather than FOR UPDATE: inserting a row that references a
 * locked row (a ledger row's user_id) takes a KEY SHARE lock, which FOR UPDATE would block,
 * deadlocking a settlement against a spend of the same user.
 */
import type { Selectable } from 'kysely'
import { isPostgres, type Database } from '../db/open-database.ts'
import { prepared } from '../db/prepared.ts'
import type { PointsAccountsTable } from '../db/schema.ts'

/** Runs `fn` in the caller's transaction if `db` is one, else in a new transaction. */
export function inTransaction<T>(db: Database, fn: (trx: Database) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn)
}

/** Serialises a user's subscription changes (redeem, team join, reset). */
export async function lockUser(trx: Database, userId: string): Promise<void> {
  if (isPostgres(trx)) await userLocked(trx, { userId })
}

// Prepared (db/prepared.ts): every relayed call takes it.
const userLocked = prepared((db, args: { userId: string }) => db.selectFrom('users').select('id').where('id', '=', args.userId).forNoKeyUpdate())

/** The account as it is now, locked until the transaction ends. */
export async function lockAccount(trx: Database, accountId: string): Promise<Selectable<PointsAccountsTable>> {
  return trx
    .selectFrom('points_accounts')
    .selectAll()
    .where('id', '=', accountId)
    .$if(isPostgres(trx), (qb) => qb.forNoKeyUpdate())
    .executeTakeFirstOrThrow()
}
