/** Operator commands for users. */
import { z } from 'zod'
import { emailSchema, passwordSchema, userStatuses, userTypes, usernameSchema } from '../contract/accounts.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { defineCommand, type Command } from '../cli-registry.ts'
import { createUserAsOperator } from './create.ts'
import { setUserStatus, setUserType } from './operator.ts'

const userArgument = { name: 'user', description: 'username' } as const

export const userCommands: Command[] = [
  defineCommand({
    name: 'user create',
    summary: 'Create an active user (no e-mail code needed) and print its id',
    options: {
      username: { description: 'login name: 3–32 letters, digits, _ or -', schema: usernameSchema },
      email: { description: 'e-mail address', schema: emailSchema },
      password: { description: '8–128 characters; shown by the shell and its history: prefer the prompt or --password-stdin', schema: passwordSchema.optional() },
      'password-stdin': { description: 'read the password from the first line of stdin (scripts); without either, a prompt that does not echo it', schema: z.boolean().default(false), flag: true },
      type: { description: 'user type (default normal)', schema: z.enum(userTypes).default('normal') },
    },
    async run({ username, email, password: given, 'password-stdin': fromStdin, type }, { services, print, readSecret }) {
      if (given !== undefined && fromStdin) throw new Error('give --password or --password-stdin, not both')
      const password = given ?? passwordSchema.safeParse(await readSecret('Password: ', { fromStdin })).data
      if (password === undefined) throw new Error('the password must have 8–128 characters')
      const user = await createUserAsOperator(services, cliOperator(), { username, email, password, userType: type })
      print(user.id)
    },
  }),

  defineCommand({
    name: 'user set-type',
    summary: "Change a user's type",
    argument: userArgument,
    options: { type: { description: 'the new type', schema: z.enum(userTypes) } },
    async run({ user, type }, { services, print }) {
      const changed = await setUserType(services.db, cliOperator(), { user: { username: user }, type, now: services.clock.now() })
      print(`${changed.username} is now ${changed.user_type}`)
    },
  }),

  ...userStatuses.map((status) =>
    defineCommand({
      name: status === 'disabled' ? 'user disable' : 'user enable',
      summary:
        status === 'disabled'
          ? "Disable a user: their sessions, client tokens and API keys stop working at once"
          : 'Enable a disabled user again',
      argument: userArgument,
      options: {},
      async run({ user }, { services, print }) {
        const changed = await setUserStatus(services.db, cliOperator(), { user: { username: user }, status, now: services.clock.now() })
        print(`${changed.username} is ${changed.status}`)
      },
    }),
  ),
]
