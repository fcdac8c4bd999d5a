/** Operator command for teams. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { usernameSchema } from '../contract/accounts.ts'
import { knownPublicUrl, unknownPublicUrlHint } from '../deployment/public-url.ts'
import { findPackageByCode } from '../subscriptions/packages.ts'
import { findUserByUsername } from '../users/users.ts'
import { invitationUrl, teamCodeOf } from './team-codes.ts'
import { createTeam, listTeams, renewTeam } from './teams.ts'

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
      const publicUrl = await knownPublicUrl(db, config)
      const [pkg, owner] = await Promise.all([findPackageByCode(db, values.package), findUserByUsername(db, values.owner)])
      if (!pkg) throw new Error(`no package with code ${values.package}`)
      if (!owner) throw new Error(`no user named ${values.owner}`)
      const team = await createTeam(db, clock.now(), { name: values.name, pkg, ownerId: owner.id })
      const code = teamCodeOf(team)
      print(code)
      print(publicUrl ? invitationUrl(publicUrl, code) : `no invitation link: ${unknownPublicUrlHint}. The owner also finds it on the portal's subscription page.`)
    },
  }),
  defineCommand({
    name: 'team list',
    summary: 'List the teams: id, name, owner, package, status and end of their subscription, members',
    options: {},
    async run(_values, { services, print }) {
      const teams = await listTeams(services.db, services.clock.now())
      print(['id'.padEnd(teams[0]?.id.length ?? 18), 'package'.padEnd(12), 'status'.padEnd(8), 'ends'.padEnd(10), 'members', 'owner'.padEnd(16), 'name'].join('  '))
      if (teams.length === 0) print('no teams: create one with "team create"')
      for (const team of teams) {
        const ends = new Date(team.end_timestamp).toISOString().slice(0, 10)
        print([team.id, team.package.padEnd(12), team.status.padEnd(8), ends, String(team.members).padStart(7), team.owner.padEnd(16), team.name].join('  '))
      }
    },
  }),
  defineCommand({
    name: 'team renew',
    summary: 'Give a team a new subscription on its pool (one in force ends, its points expire); members keep their membership',
    options: {
      team: { description: 'team id (see "team list")', schema: z.string().regex(/^\d{1,20}$/, 'a team id') },
      package: { description: 'code of a team package', schema: z.string() },
    },
    async run(values, { services, print }) {
      const { db, clock } = services
      const pkg = await findPackageByCode(db, values.package)
      if (!pkg) throw new Error(`no package with code ${values.package}`)
      const subscription = await renewTeam(db, clock.now(), { teamId: values.team, pkg })
      print(`team ${values.team} on ${pkg.code} until ${new Date(subscription.end_timestamp).toISOString()}`)
    },
  }),
]
