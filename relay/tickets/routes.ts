/** The signed-in user's support tickets: every call is scoped to the caller's own tickets. */
import { ticketEndpoints } from '../contract/tickets.ts'
import { rateLimitRule } from '../http/rate-limit.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { addTicketMessage, createTicket, getTicket, listTickets, setTicketStatus } from './service.ts'

/** Tickets wait for a person: a burst of them is a script, not a support need. */
const ticketLimits = {
  createPerUser: rateLimitRule('ticket-create-user', 20, 3600),
  replyPerUser: rateLimitRule('ticket-reply-user', 120, 3600),
} as const

/** The two status changes a user makes; the state machine in service.ts decides if they may. */
const statusCalls = [
  { endpoint: ticketEndpoints.close, to: 'closed' },
  { endpoint: ticketEndpoints.reopen, to: 'pending' },
] as const

export function ticketRoutes(services: RelayServices): Route[] {
  const { db, clock, limiter } = services

  return [
    defineRoute(ticketEndpoints.list, async ({ user, query, lang }) => listTickets(db, { ...query, userId: user.id }, lang)),

    defineRoute(ticketEndpoints.create, async ({ user, body, lang }) => {
      await limiter.enforce(ticketLimits.createPerUser, user.id)
      const created = await db
        .transaction()
        .execute((trx) => createTicket(trx, { ...body, userId: user.id, now: clock.now() }))
      return getTicket(db, created.id, user.id, lang)
    }),

    defineRoute(ticketEndpoints.detail, async ({ user, params, lang }) => getTicket(db, params.id, user.id, lang)),

    defineRoute(ticketEndpoints.reply, async ({ user, params, body, lang }) => {
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
    }),

    ...statusCalls.map(({ endpoint, to }) =>
      defineRoute(endpoint, async ({ user, params, lang }) => {
        await setTicketStatus(db, { ticketId: params.id, userId: user.id, to, by: 'user', now: clock.now() })
        return getTicket(db, params.id, user.id, lang)
      }),
    ),
  ]
}
