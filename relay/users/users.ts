/** The users table: lookups, creation, and the User shape every account call returns. */
import { randomInt } from 'node:crypto'
import { sql, type Selectable } from 'kysely'
import type { User, UserType } from '../contract/accounts.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { UsersTable } from '../db/schema.ts'

export type UserRow = Selectable<UsersTable>

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    user_type: row.user_type,
    status: row.status,
    invite_code: row.invite_code,
    invited_by: row.invited_by,
    remark: row.remark,
    name: row.name,
    phone: row.phone,
    company: row.company,
    avatar: row.avatar,
    create_timestamp: row.create_timestamp,
    last_login_timestamp: row.last_login_timestamp,
    update_timestamp: row.update_timestamp,
  }
}

export function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst()
}

/** Usernames are unique regardless of case (the index is on lower(username)). */
export function findUserByUsername(db: Database, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst()
}

/** Login accepts either; usernames cannot contain `@`, so the form tells them apart. */
export function findUserByLogin(db: Database, login: string): Promise<UserRow | undefined> {
  return login.includes('@') ? findUserByEmail(db, login) : findUserByUsername(db, login)
}

export function findUserByInviteCode(db: Database, inviteCode: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('invite_code', '=', inviteCode.toUpperCase()).executeTakeFirst()
}

export interface NewUser {
  username: string
  email: string
  /** From hashPassword, computed before any transaction: scrypt is slow by design. */
  passwordHash: string
  userType?: UserType
  invitedBy?: string | null
}

/** Inserts the user with a fresh invite code. Unique violations propagate. */
export async function insertUser(db: Database, now: number, input: NewUser): Promise<UserRow> {
  const row: UserRow = {
    id: newId(),
    username: input.username,
    email: input.email.toLowerCase(),
    password_hash: input.passwordHash,
    user_type: input.userType ?? 'normal',
    status: 'active',
    invite_code: await freeInviteCode(db),
    invited_by: input.invitedBy ?? null,
    remark: null,
    name: null,
    phone: null,
    company: null,
    avatar: null,
    token_version: 0,
    create_timestamp: now,
    update_timestamp: now,
    last_login_timestamp: null,
  }
  await db.insertInto('users').values(row).execute()
  return row
}

/** Digits and capitals without I, L, O, U: easy to read aloud and to type (as device codes). */
const inviteAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * 8 symbols = 40 bits, so a clash is rare; checking first keeps the insert (and the
 * transaction it may run in) from failing on the unique index in the common case.
 */
async function freeInviteCode(db: Database): Promise<string> {
  for (;;) {
    const code = Array.from({ length: 8 }, () => inviteAlphabet[randomInt(inviteAlphabet.length)]).join('')
    if (!(await findUserByInviteCode(db, code))) return code
  }
}
