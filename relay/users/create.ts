/**
 * An operator creates an active user (no e-mail code): the CLI's `user create` with the password
 * it is given or asks for, the console's form with one the relay generates and shows once. Both
 * write `user.create` to the audit log in the transaction of the insert.
 */
import { randomBytes } from 'node:crypto'
import type { UserType } from '../contract/accounts.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { hashPassword } from '../auth/passwords.ts'
import { isUniqueViolation } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { findUserByEmail, findUserByUsername, insertUser, type UserRow } from './users.ts'

/** 16 characters of base64url: 96 random bits, typed once and then changed by its owner. */
export function generatedPassword(): string {
  return randomBytes(12).toString('base64url')
}

export async function createUserAsOperator(
  services: Pick<RelayServices, 'db' | 'clock' | 'config'>,
  operator: Operator,
  input: { username: string; email: string; password: string; userType: UserType },
): Promise<UserRow> {
  const { db, clock } = services
  // Hashed before the transaction: the hash is the slow part and needs no lock.
  const passwordHash = await hashPassword(input.password, services.config.passwordCost)
  try {
    return await db.transaction().execute(async (trx) => {
      if (await findUserByUsername(trx, input.username)) throw new RelayError('username_taken', `username ${input.username} is taken`)
      if (await findUserByEmail(trx, input.email)) throw new RelayError('email_taken', `e-mail ${input.email} is already registered`)
      const now = clock.now()
      const user = await insertUser(trx, now, { username: input.username, email: input.email, passwordHash, userType: input.userType })
      await recordAudit(trx, operator, { action: 'user.create', target: { kind: 'user', ref: user.username }, after: { email: user.email, user_type: user.user_type } }, now)
      return user
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new RelayError('conflict', 'username or e-mail was taken meanwhile')
    throw error
  }
}
