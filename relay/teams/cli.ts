/** Operator command for teams. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { usernameSchema } from '../contract/accounts.ts'
import { isId } from '../contract/ids.ts'
import { knownPublicUrl, unknownPublicUrlHint } from '../deployment/public-url.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { createTeamAsOperator, renewTeamAsOperator } from './operator.ts'
import { invitationUrl } from './team-codes.ts'
import { listTeams } from './teams.ts'

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
      const { teamCode: code } = await createTeamAsOperator(db, cliOperator(), { name: values.name, packageCode: values.package, owner: values.owner, now: clock.now() })
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
      team: { description: 'team id (see "team list")', schema: z.string().refine(isId, 'a team id') },
      package: { description: 'code of a team package', schema: z.string() },
    },
    async run(values, { services, print }) {
      const { db, clock } = services
      const subscription = await renewTeamAsOperator(db, cliOperator(), { teamId: values.team, packageCode: values.package, now: clock.now() })
      print(`team ${values.team} on ${values.package.trim().toUpperCase()} until ${new Date(subscription.end_timestamp).toISOString()}`)
    },
  }),
]
