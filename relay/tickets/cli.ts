/** Operator commands for tickets: list, show, reply (optionally moving the status), assign, tag. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { usernameSchema } from '../contract/accounts.ts'
import { ticketBounds, ticketContentSchema, ticketStatusFilters } from '../contract/tickets.ts'
import { findUserById } from '../users/users.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { operatorTicketStatuses } from '../contract/admin.ts'
import { assignAsOperator, replyAsOperator, setTagsAsOperator } from './operator.ts'
import {
  findTicketByReference,
  getTicket,
  listAllTickets,
} from './service.ts'

const ticketArgument = { name: 'ticket', description: 'ticket number (e.g. T2501150001) or id' } as const
/** Operators read the relay's own ticket texts in English, as the rest of the CLI. */
const cliLanguage = 'en'
const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' '))

export const ticketCommands: Command[] = [
  defineCommand({
    name: 'ticket list',
    summary: "Every user's tickets, newest first, 100 per page",
    options: {
      status: {
        description: 'one status, or open for pending and processing together',
        schema: z.enum(ticketStatusFilters).optional(),
      },
      page: { description: 'page number (default 1)', schema: z.coerce.number().int().min(1).default(1) },
    },
    async run({ status, page }, { services, print }) {
      const list = await listAllTickets(services.db, { status, page, pageSize: 100 }, cliLanguage)
      print(`${list.total} ticket(s)${status ? ` with status ${status}` : ''}, page ${list.page}`)
      const header = ['number'.padEnd(11), 'status'.padEnd(10), 'prio.'.padEnd(6), 'type'.padEnd(13), 'owner'.padEnd(16), 'assignee'.padEnd(16), 'updated (UTC)'.padEnd(16)]
      print([...header, 'title'].join('  '))
      for (const t of list.items) {
        const columns = [t.number, t.status.padEnd(10), t.priority.padEnd(6), t.type.padEnd(13), t.owner_name.padEnd(16)]
        print([...columns, (t.assignee_name ?? '-').padEnd(16), time(t.update_timestamp), t.title].join('  '))
      }
    },
  }),

  defineCommand({
    name: 'ticket show',
    summary: 'One ticket with its whole conversation',
    argument: ticketArgument,
    options: {},
    async run({ ticket }, { services, print }) {
      const row = await findTicketByReference(services.db, ticket)
      const detail = await getTicket(services.db, row.id, undefined, cliLanguage)
      const owner = await findUserById(services.db, row.user_id)
      print(`${detail.number}  ${detail.status}  ${detail.priority}  ${detail.type}  by ${owner?.username ?? '?'}  (id ${detail.id})`)
      print(`assignee: ${detail.assignee_name ?? '-'}  tags: ${detail.tags.join(', ') || '-'}`)
      print(`created ${time(detail.create_timestamp)}  updated ${time(detail.update_timestamp)}  closed ${time(detail.closed_timestamp)}`)
      print(`title: ${detail.title}`)
      print('')
      print(`[${time(detail.create_timestamp)}] ${owner?.username ?? 'user'}: ${detail.content}`)
      for (const m of detail.messages) {
        const author = m.author_kind === 'admin' ? `${m.author_name ?? 'support'} (operator)` : (m.author_name ?? 'user')
        print(`[${time(m.create_timestamp)}] ${author}: ${m.content}`)
      }
    },
  }),

  defineCommand({
    name: 'ticket reply',
    summary: "Answer a ticket as support (in the assignee's name when it has one), optionally moving its status",
    argument: ticketArgument,
    options: {
      message: { description: `the reply, 1–${ticketBounds.content.max} characters`, schema: ticketContentSchema },
      status: { description: 'new status (optional)', schema: z.enum(operatorTicketStatuses).optional() },
    },
    async run({ ticket, message, status }, { services, print }) {
      const reply = await replyAsOperator(services.db, cliOperator(), { ticket, content: message, status, now: services.clock.now() })
      print(`replied to ${reply.number}; status ${reply.status}`)
    },
  }),

  defineCommand({
    name: 'ticket assign',
    summary: 'Make a user the assignee of a ticket (shown to its owner by name)',
    argument: ticketArgument,
    options: { to: { description: 'username of the assignee', schema: usernameSchema } },
    async run({ ticket, to }, { services, print }) {
      const assigned = await assignAsOperator(services.db, cliOperator(), { ticket, to: { username: to }, now: services.clock.now() })
      print(`${assigned.number} assigned to ${assigned.assignee_name}`)
    },
  }),

  defineCommand({
    name: 'ticket tag',
    summary: "Set a ticket's tags (replacing the old ones; an empty list clears them)",
    argument: ticketArgument,
    options: {
      tags: {
        description: `comma-separated, at most ${ticketBounds.tags.max} of up to ${ticketBounds.tags.tagMax} characters`,
        schema: z
          .string()
          .transform((list) => [...new Set(list.split(',').map((tag) => tag.trim()).filter(Boolean))])
          .pipe(z.array(z.string().max(ticketBounds.tags.tagMax)).max(ticketBounds.tags.max)),
      },
    },
    async run({ ticket, tags }, { services, print }) {
      const changed = await setTagsAsOperator(services.db, cliOperator(), { ticket, tags: { replace: tags }, now: services.clock.now() })
      print(`${changed.number} tags: ${changed.tags.join(', ') || '-'}`)
    },
  }),
]
