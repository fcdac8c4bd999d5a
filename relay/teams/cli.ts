/** Operator command for teams. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { usernameSchema } from '../contract/accounts.ts'
import { findPackageByCode } from '../subscriptions/packages.ts'
import { findUserByUsername } from '../users/users.ts'
import { invitationUrl, teamCodeOf } from './team-codes.ts'
import { createTeam } from './teams.ts'

export const teamCommands: Command[] = [
  defineCommand({
    name: 'team create',
    summary: 'Create a team on a team package with its owner as first member; print its code and invitation link',
    options: {
      name: { description: 'team name, 1–64 characters', schema: z.string().trim().min(1).max(64) },
      package: { description: 'code of a team package', schema: z.string() },
      owner: { description: 'username of the owner (joins at once, irreversibly)', schema: usernameSchema },
    },
    async run(values, { services, print }) {
      const { db, clock, config } = services
      const [pkg, owner] = await Promise.all([findPackageByCode(db, values.package), findUserByUsername(db, values.owner)])
      if (!pkg) throw new Error(`no package with code ${values.package}`)
      if (!owner) throw new Error(`no user named ${values.owner}`)
      const team = await createTeam(db, clock.now(), { name: values.name, pkg, ownerId: owner.id })
      const code = teamCodeOf(team)
      print(code)
      print(invitationUrl(config.publicUrl, code))
    },
  }),
]
