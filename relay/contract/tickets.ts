/**
 * Support tickets (docs/product.md, docs/architecture.md §5–6). Bounds (docs/product.md leaves them open): title 1–120
 * characters, content and replies 1–5000, at most 10 tags of up to 32 characters.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { pageQuery, pagedSchema } from './paging.ts'
import { idPathParams } from './paths.ts'

export const ticketBounds = {
  title: { min: 1, max: 120 },
  content: { min: 1, max: 5000 },
  tags: { max: 10, tagMax: 32 },
} as const

/** One tag as operators write it (ticket page, `ticket tag`). */
export const ticketTagSchema = z.string().trim().min(1).max(ticketBounds.tags.tagMax)
/** Tags added and removed together; adding one it has or removing one it lacks changes nothing. */
export const ticketTagsChangeBody = z.object({
  add: z.array(ticketTagSchema).max(ticketBounds.tags.max).default([]),
  remove: z.array(ticketTagSchema).max(ticketBounds.tags.max).default([]),
})

export const ticketTypes = ['pointsReset', 'accountAppeal', 'consultation', 'other'] as const
export type TicketType = (typeof ticketTypes)[number]
export const ticketPriorities = ['low', 'medium', 'high'] as const
export type TicketPriority = (typeof ticketPriorities)[number]
export const ticketStatuses = ['pending', 'processing', 'completed', 'closed', 'rejected'] as const
export type TicketStatus = (typeof ticketStatuses)[number]
/** States a user can still close (and an operator still work on). */
export const openTicketStatuses = ['pending', 'processing'] as const satisfies readonly TicketStatus[]
/** Who asks for a status change: the ticket's owner, or the operators (console, CLI, automatic approval). */
export type TicketActor = 'user' | 'staff'

/**
 * The legal transitions, as target ← sources per actor (docs/architecture.md §6); relay/tickets/service.ts
 * enforces them, the portal offers only these. An operator may complete a pending ticket
 * directly: an automatically approved points reset never passes through processing, nor does a
 * question answered in one reply. Completed and rejected are final.
 */
export const ticketTransitions: Record<TicketActor, Partial<Record<TicketStatus, readonly TicketStatus[]>>> = {
  user: { closed: openTicketStatuses, pending: ['closed'] },
  staff: { processing: ['pending'], completed: ['pending', 'processing'], rejected: ['pending', 'processing'] },
}

export function canTransition(actor: TicketActor, from: TicketStatus, to: TicketStatus): boolean {
  return ticketTransitions[actor][to]?.includes(from) ?? false
}

/** The list filter: one status, or `open` for pending and processing together. */
export const ticketStatusFilters = [...ticketStatuses, 'open'] as const
export type TicketStatusFilter = (typeof ticketStatusFilters)[number]
export const ticketAuthorKinds = ['user', 'admin'] as const
export type TicketAuthorKind = (typeof ticketAuthorKinds)[number]

export const ticketTitleSchema = z.string().trim().min(ticketBounds.title.min).max(ticketBounds.title.max)
export const ticketContentSchema = z.string().trim().min(ticketBounds.content.min).max(ticketBounds.content.max)

export const createTicketBody = z.object({
  type: z.enum(ticketTypes),
  priority: z.enum(ticketPriorities).default('medium'),
  title: ticketTitleSchema,
  content: ticketContentSchema,
})
export type CreateTicketBody = z.input<typeof createTicketBody>

export const ticketReplyBody = z.object({ content: ticketContentSchema })

export const ticketListQuery = pageQuery.extend({ status: z.enum(ticketStatusFilters).optional() })

export const ticketSchema = z
  .object({
    id: idSchema,
    /** What people quote: `T` + yymmdd (UTC) + a counter of at least 4 digits. */
    number: z.string(),
    type: z.enum(ticketTypes),
    priority: z.enum(ticketPriorities),
    status: z.enum(ticketStatuses),
    title: z.string(),
    content: z.string(),
    assignee_id: idSchema.nullable(),
    assignee_name: z.string().nullable(),
    tags: z.array(z.string()),
    create_timestamp: timestampSchema,
    update_timestamp: timestampSchema,
    /** The latest operator reply. */
    reply_timestamp: timestampSchema.nullable(),
    closed_timestamp: timestampSchema.nullable(),
  })
  .meta({ id: 'Ticket' })

export const ticketMessageSchema = z
  .object({
    id: idSchema,
    author_kind: z.enum(ticketAuthorKinds),
    /** Null for an operator reply on behalf of the support team as a whole. */
    author_name: z.string().nullable(),
    content: z.string(),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'TicketMessage' })

export const ticketDetailSchema = ticketSchema
  .extend({ messages: z.array(ticketMessageSchema) })
  .meta({ id: 'TicketDetail' })

export const ticketPageSchema = pagedSchema(ticketSchema).meta({ id: 'TicketPage' })

export type Ticket = z.output<typeof ticketSchema>
export type TicketMessage = z.output<typeof ticketMessageSchema>
export type TicketDetail = z.output<typeof ticketDetailSchema>
export type TicketPage = z.output<typeof ticketPageSchema>

const tag = 'tickets'

export const ticketEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/api/user/tickets',
    summary: "The caller's tickets, newest first",
    description: '`status` filters by one status, or `open` for pending and processing together.',
    tag,
    auth: 'user',
    scope: 'session',
    query: ticketListQuery,
    response: ticketPageSchema,
  }),
  create: endpoint({
    method: 'post',
    path: '/api/user/tickets',
    summary: 'Open a ticket',
    description: 'It starts pending (awaiting manual review). The reply is the new ticket.',
    tag,
    auth: 'user',
    scope: 'session',
    body: createTicketBody,
    response: ticketDetailSchema,
    errors: ['rate_limited'],
    idempotent: true,
  }),
  detail: endpoint({
    method: 'get',
    path: '/api/user/tickets/{id}',
    summary: 'A ticket with its conversation',
    tag,
    auth: 'user',
    scope: 'session',
    params: idPathParams,
    response: ticketDetailSchema,
    errors: ['not_found'],
  }),
  reply: endpoint({
    method: 'post',
    path: '/api/user/tickets/{id}/messages',
    summary: 'Reply to a ticket',
    description: 'A closed ticket takes no replies: reopen it first. The reply is the updated ticket.',
    tag,
    auth: 'user',
    scope: 'session',
    params: idPathParams,
    body: ticketReplyBody,
    response: ticketDetailSchema,
    errors: ['not_found', 'ticket_closed', 'rate_limited'],
    idempotent: true,
  }),
  close: endpoint({
    method: 'post',
    path: '/api/user/tickets/{id}/close',
    summary: 'Close a pending or processing ticket',
    tag,
    auth: 'user',
    scope: 'session',
    params: idPathParams,
    response: ticketDetailSchema,
    errors: ['not_found', 'ticket_transition_invalid'],
  }),
  reopen: endpoint({
    method: 'post',
    path: '/api/user/tickets/{id}/reopen',
    summary: 'Reopen a closed ticket',
    description: 'It goes back to pending, awaiting manual review.',
    tag,
    auth: 'user',
    scope: 'session',
    params: idPathParams,
    response: ticketDetailSchema,
    errors: ['not_found', 'ticket_transition_invalid'],
  }),
}
