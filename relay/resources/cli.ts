/** Operator commands for the resource links of the profile page. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { resourceBounds } from '../contract/resources.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { addResourceLinkAsOperator, listResourceLinks, removeResourceLinkAsOperator } from './service.ts'

export const resourceCommands: Command[] = [
  defineCommand({
    name: 'resource add',
    summary: 'Add a resource link for every user, print its id',
    options: {
      title: { description: `1–${resourceBounds.title.max} characters`, schema: z.string() },
      url: { description: 'an http(s) address', schema: z.string() },
      description: { description: `up to ${resourceBounds.description.max} characters`, schema: z.string().optional() },
      order: { description: 'display order, ascending (default 0)', schema: z.coerce.number().int().default(0) },
    },
    async run({ title, url, description, order }, { services, print }) {
      // The service validates the link, so the CLI and any later caller refuse the same input.
      const link = await addResourceLinkAsOperator(services.db, cliOperator(), { title, url, description, sortOrder: order }, services.clock.now())
      print(link.id)
    },
  }),

  defineCommand({
    name: 'resource list',
    summary: 'The resource links in display order',
    options: {},
    async run(_values, { services, print }) {
      const list = await listResourceLinks(services.db)
      const title = Math.max(5, ...list.items.map((link) => link.title.length))
      print(['id'.padEnd(list.items[0]?.id.length ?? 18), 'order', 'title'.padEnd(title), 'url'].join('  '))
      for (const link of list.items) print([link.id, String(link.sort_order).padStart(5), link.title.padEnd(title), link.url].join('  '))
      print(`${list.count} link(s)`)
    },
  }),

  defineCommand({
    name: 'resource remove',
    summary: 'Remove a resource link',
    argument: { name: 'id', description: 'the id that resource list prints' },
    options: {},
    async run({ id }, { services, print }) {
      await removeResourceLinkAsOperator(services.db, cliOperator(), id, services.clock.now())
      print(`removed ${id}`)
    },
  }),
]
