/** Operator commands for users. */
import { z } from 'zod'
import { emailSchema, passwordSchema, userTypes, usernameSchema } from '../contract/accounts.ts'
import { hashPassword } from '../auth/passwords.ts'
import { defineCommand, type Command } from '../cli-registry.ts'
import { isUniqueViolation } from '../db/open-database.ts'
import { findUserByEmail, findUserByUsername, insertUser } from './users.ts'

export const userCommands: Command[] = [
  defineCommand({
    name: 'user create',
    summary: 'Create an active user (no e-mail code needed) and print its id',
    options: {
      username: { description: 'login name: 3–32 letters, digits, _ or -', schema: usernameSchema },
      email: { description: 'e-mail address', schema: emailSchema },
      password: { description: '8–128 characters', schema: passwordSchema },
      type: { description: 'user type (default normal)', schema: z.enum(userTypes).default('normal') },
    },
    async run({ username, email, password, type }, { services, print }) {
      const { db, clock } = services
      if (await findUserByUsername(db, username)) throw new Error(`username ${username} is taken`)
      if (await findUserByEmail(db, email)) throw new Error(`e-mail ${email} is already registered`)
      try {
        const user = await insertUser(db, clock.now(), { username, email, passwordHash: await hashPassword(password, services.config.passwordCost), userType: type })
        print(user.id)
      } catch (error) {
        if (isUniqueViolation(error)) throw new Error('username or e-mail was taken meanwhile')
        throw error
      }
    },
  }),
]
