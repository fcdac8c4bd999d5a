/**
 * What operators do to users, from the console (relay/admin/routes.ts) and the CLI
 * (users/cli.ts, points/cli.ts) alike; each change is recorded in the audit log in the
 * transaction of the change.
 */
import type { UserStatus, UserType, User } from '../contract/accounts.ts'
import type { AdminUserDetail } from '../contract/admin.ts'
import { isId } from '../contract/ids.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { pageOffset, type PageQuery, type Paged } from '../contract/paging.ts'
import { containsText } from '../db/contains.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { listApiKeys } from '../keys/service.ts'
import { pointsHistory } from '../points/history.ts'
import { weeklyUsage } from '../points/weekly-usage.ts'
import { grant, spend } from '../points/ledger.ts'
import { inTransaction } from '../points/locks.ts'
import { pointsSummary } from '../points/summary.ts'
import type { RelayServices } from '../services.ts'
import { listTickets } from '../tickets/service.ts'
import { findUserById, findUserByUsername, toUser, type UserRow } from './users.ts'

/** Newest first: a username or e-mail containing `q` (any case), or the user whose id is `q`; in `status`. */
export async function searchUsers(db: Database, filter: PageQuery & { q?: string; status?: UserStatus }): Promise<Paged<User>> {
  let query = db.selectFrom('users')
  const q = filter.q
  if (q) query = query.where((eb) => eb.or([containsText('username', q), containsText('email', q), ...(isId(q) ? [eb('id', '=', q)] : [])]))
  if (filter.status) query = query.where('status', '=', filter.status)
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').limit(filter.pageSize).offset(pageOffset(filter)).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { items: rows.map(toUser), total: Number(count.total), page: filter.page, pageSize: filter.pageSize }
}

/**
 * Everything an operator looks at first: the account, points and plan, latest ledger rows, keys
 * (with their limits and use; `staleHoldMinutes` as for listApiKeys), tickets.
 */
export async function userForOperator(db: Database, userId: string, now: number, lang: ContentLanguage, staleHoldMinutes: number): Promise<AdminUserDetail> {
  const user = await findUserById(db, userId)
  if (!user) throw new RelayError('not_found', 'user not found')
  const latest = { page: 1, pageSize: 10 }
  const [points, ledger, usage, apiKeys, tickets] = await Promise.all([
    pointsSummary(db, userId, now, lang),
    pointsHistory(db, userId, latest),
    weeklyUsage(db, userId, now),
    listApiKeys(db, userId, now, staleHoldMinutes),
    listTickets(db, { ...latest, userId }, lang),
  ])
  return { user: toUser(user), points, ledger, usage, api_keys: apiKeys, tickets }
}

/** The user an operator names: by id in the console, by username in the CLI (a username may be all digits). */
export type UserReference = { id: string } | { username: string }

export async function findUserByReference(db: Database, reference: UserReference): Promise<UserRow> {
  const user = 'id' in reference ? await findUserById(db, reference.id) : await findUserByUsername(db, reference.username)
  if (!user) throw new RelayError('not_found', `no user ${'id' in reference ? reference.id : reference.username}`)
  return user
}

/** An operator never locks themself out of the console by their own hand. */
function refuseSelf(operator: Operator, user: UserRow): void {
  if (operator.kind === 'admin' && operator.userId === user.id) {
    throw new RelayError('business_rule', 'operators cannot change their own type or status')
  }
}

export async function setUserType(db: Database, operator: Operator, change: { user: UserReference; type: UserType; now: number }): Promise<User> {
  return db.transaction().execute(async (trx) => {
    const user = await findUserByReference(trx, change.user)
    refuseSelf(operator, user)
    await trx.updateTable('users').set({ user_type: change.type, update_timestamp: change.now }).where('id', '=', user.id).execute()
    await recordAudit(trx, operator, { action: 'user.type', target: { kind: 'user', ref: user.username }, before: { user_type: user.user_type }, after: { user_type: change.type } }, change.now)
    return toUser({ ...user, user_type: change.type, update_timestamp: change.now })
  })
}

/**
 * Disables or enables a user. Nothing else needs revoking: every access token, refresh, OAuth
 * grant and API key is checked against the user's status on each use (auth/token-user.ts,
 * auth/routes.ts, oauth/tokens.ts, keys/service.ts), so a disabled user's sessions and keys stop
 * at their next call and work again once enabled.
 */
export async function setUserStatus(db: Database, operator: Operator, change: { user: UserReference; status: UserStatus; now: number }): Promise<User> {
  return db.transaction().execute(async (trx) => {
    const user = await findUserByReference(trx, change.user)
    refuseSelf(operator, user)
    await writeUserStatus(trx, operator, user, change.status, change.now)
    return toUser({ ...user, status: change.status, update_timestamp: change.now })
  })
}

/**
 * Users ticked on the console's list, in one transaction with one audit row each. Those already in
 * `status` are left alone and not counted; an unknown id or the operator among them changes nothing.
 */
export async function setUsersStatus(db: Database, operator: Operator, change: { userIds: string[]; status: UserStatus; now: number }): Promise<{ changed: number }> {
  const ids = [...new Set(change.userIds)]
  return db.transaction().execute(async (trx) => {
    const users = await trx.selectFrom('users').selectAll().where('id', 'in', ids).orderBy('id').execute()
    if (users.length !== ids.length) throw new RelayError('not_found', 'user not found')
    for (const user of users) refuseSelf(operator, user)
    const moving = users.filter((user) => user.status !== change.status)
    for (const user of moving) await writeUserStatus(trx, operator, user, change.status, change.now)
    return { changed: moving.length }
  })
}

async function writeUserStatus(db: Database, operator: Operator, user: UserRow, status: UserStatus, now: number): Promise<void> {
  await db.updateTable('users').set({ status, update_timestamp: now }).where('id', '=', user.id).execute()
  await recordAudit(
    db,
    operator,
    { action: status === 'disabled' ? 'user.disable' : 'user.enable', target: { kind: 'user', ref: user.username }, before: { status: user.status }, after: { status } },
    now,
  )
}

/**
 * Grants (`earned`) or deducts (`consumed`) points on the user's package in force, with the
 * operator's reason in the ledger row; the audit row shares the ledger's transaction. A deduction
 * beyond the balance is refused (422 points_insufficient): the ledger never goes negative.
 */
export async function adjustPoints(
  services: Pick<RelayServices, 'db' | 'clock'>,
  operator: Operator,
  change: { user: UserReference; direction: 'grant' | 'deduct'; amount: number; reason: string },
): Promise<{ username: string; balance: number }> {
  return inTransaction(services.db, async (trx) => {
    const user = await findUserByReference(trx, change.user)
    const ledger = { db: trx, clock: services.clock }
    const entry =
      change.direction === 'grant'
        ? await grant(ledger, { userId: user.id, amount: change.amount, reason: change.reason })
        : await spend(ledger, { userId: user.id, amount: change.amount, model: null, reason: change.reason })
    // A user without a plan has no account to credit: a trial package is the way (subscriptions/trial.ts).
    if (!entry) throw new RelayError('points_need_package', `${user.username} holds no package in force: start a trial package instead (points trial)`)
    const delta = change.direction === 'grant' ? change.amount : -change.amount
    await recordAudit(
      trx,
      operator,
      {
        action: change.direction === 'grant' ? 'points.grant' : 'points.deduct',
        target: { kind: 'user', ref: user.username },
        before: { balance: entry.balance - delta },
        after: { balance: entry.balance, change: delta, reason: change.reason },
      },
      services.clock.now(),
    )
    return { username: user.username, balance: entry.balance }
  })
}
