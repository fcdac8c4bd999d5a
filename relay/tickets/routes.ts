/** The signed-in user's support tickets: every call is scoped to the caller's own tickets. */
import {
  createTicketBody,
  ticketDetailSchema,
  ticketListQuery,
  ticketPageSchema,
  ticketPaths,
  ticketReplyBody,
} from '../contract/tickets.ts'
import { idPathParams } from '../contract/paths.ts'
import { rateLimitRule } from '../http/rate-limit.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { addTicketMessage, createTicket, getTicket, listTickets, setTicketStatus } from './service.ts'

const tag = 'tickets'

/** Tickets wait for a person: a burst of them is a script, not a support need. */
const ticketLimits = {
  createPerUser: rateLimitRule('ticket-create-user', 20, 3600),
  replyPerUser: rateLimitRule('ticket-reply-user', 120, 3600),
} as const

/** The two status changes a user makes; the state machine in service.ts decides if they may. */
const statusCalls = [
  { path: ticketPaths.close, to: 'closed', summary: 'Close a pending or processing ticket', description: undefined },
  { path: ticketPaths.reopen, to: 'pending', summary: 'Reopen a closed ticket', description: 'It goes back to pending, awaiting manual review.' },
] as const

export function ticketRoutes(services: RelayServices): Route[] {
  const { db, clock, limiter } = services

  return [
    defineRoute({
      method: 'get',
      path: ticketPaths.tickets,
      summary: "The caller's tickets, newest first",
      description: '`status` filters by one status, or `open` for pending and processing together.',
      tag,
      auth: 'user',
      scope: 'session',
      query: ticketListQuery,
      response: ticketPageSchema,
      handler: async ({ user, query, lang }) => listTickets(db, { ...query, userId: user.id }, lang),
    }),

    defineRoute({
      method: 'post',
      path: ticketPaths.tickets,
      summary: 'Open a ticket',
      description: 'It starts pending (awaiting manual review). The reply is the new ticket.',
      tag,
      auth: 'user',
      scope: 'session',
      body: createTicketBody,
      response: ticketDetailSchema,
      errors: ['rate_limited'],
      idempotent: true,
      handler: async ({ user, body, lang }) => {
        await limiter.enforce(ticketLimits.createPerUser, user.id)
        const created = await db
          .transaction()
          .execute((trx) => createTicket(trx, { ...body, userId: user.id, now: clock.now() }))
        return getTicket(db, created.id, user.id, lang)
      },
    }),

    defineRoute({
      method: 'get',
      path: ticketPaths.ticket,
      summary: 'A ticket with its conversation',
      tag,
      auth: 'user',
      scope: 'session',
      params: idPathParams,
      response: ticketDetailSchema,
      errors: ['not_found'],
      handler: async ({ user, params, lang }) => getTicket(db, params.id, user.id, lang),
    }),

    defineRoute({
      method: 'post',
      path: ticketPaths.messages,
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
      handler: async ({ user, params, body, lang }) => {
        await limiter.enforce(ticketLimits.replyPerUser, user.id)
        await db.transaction().execute((trx) =>
          addTicketMessage(trx, {
            ticketId: params.id,
            userId: user.id,
            kind: 'user',
            authorId: user.id,
            authorName: user.username,
            content: body.content,
            now: clock.now(),
          }),
        )
        return getTicket(db, params.id, user.id, lang)
      },
    }),

    ...statusCalls.map(({ path, to, summary, description }) =>
      defineRoute({
        method: 'post',
        path,
        summary,
        description,
        tag,
        auth: 'user',
        scope: 'session',
        params: idPathParams,
        response: ticketDetailSchema,
        errors: ['not_found', 'ticket_transition_invalid'],
        handler: async ({ user, params, lang }) => {
          await setTicketStatus(db, { ticketId: params.id, userId: user.id, to, by: 'user', now: clock.now() })
          return getTicket(db, params.id, user.id, lang)
        },
      }),
    ),
  ]
}
