/** Operator commands for external clients (docs/oauth.md). */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { clientNameMaxLength, listClients } from './clients.ts'
import { createClientAsOperator, removeClientAsOperator } from './operator-clients.ts'

/**
 * The registry takes one value per option, so several redirect URIs come as one value
 * separated by spaces or commas (neither belongs in a redirect URI we accept).
 */
const redirectUrisSchema = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(/[\s,]+/).filter(Boolean))

export const clientCommands: Command[] = [
  defineCommand({
    name: 'client create',
    summary: 'Register an external client and print its client_id and secret (the secret is shown once)',
    options: {
      name: { description: 'shown to users on the consent screens', schema: z.string().trim().min(1).max(clientNameMaxLength) },
      'redirect-uri': {
        description: 'code-flow redirect URIs, separated by spaces or commas; https, or http on loopback (none: device flow only)',
        schema: redirectUrisSchema,
      },
      'first-party': { description: 'our own app: may also use /auth/sso-authorize', schema: z.boolean().default(false), flag: true },
    },
    async run(values, { services, print }) {
      const { client, secret } = await createClientAsOperator(services.db, cliOperator(), services.clock, {
        name: values.name,
        redirectUris: values['redirect-uri'],
        firstParty: values['first-party'],
      })
      print(`client_id=${client.client_id}`)
      print(`client_secret=${secret}`)
    },
  }),

  defineCommand({
    name: 'client list',
    summary: 'List registered clients: client_id, first-party, name, redirect URIs (tab-separated)',
    options: {},
    async run(_values, { services, print }) {
      print(['client_id', 'kind', 'name', 'redirect URIs'].join('\t'))
      for (const client of await listClients(services.db)) {
        print([client.clientId, client.firstParty ? 'first-party' : 'third-party', client.name, client.redirectUris.join(' ')].join('\t'))
      }
    },
  }),

  defineCommand({
    name: 'client remove',
    summary: 'Remove a client with every code and refresh token it holds (its access tokens lapse within their lifetime)',
    options: { 'client-id': { description: 'the client_id to remove', schema: z.string().min(1) } },
    async run(values, { services, print }) {
      await removeClientAsOperator(services.db, cliOperator(), { client: { clientId: values['client-id'] }, now: services.clock.now() })
      print(`removed ${values['client-id']}`)
    },
  }),
]
