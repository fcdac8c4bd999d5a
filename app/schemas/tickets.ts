/** Forms of the ticket screens; bounds from the relay contract, messages are translation keys. */
import { z } from 'zod'
import { idInputSchema, ticketBounds, ticketPriorities, ticketTypes } from '#relay/contract/index.ts'
import { requiredText } from './auth.ts'

const required = ['type', 'title', 'content'] as const

export const createTicketSchema = z
  .object({
    type: z.enum(ticketTypes, { error: 'validation:required' }),
    priority: z.enum(ticketPriorities).default('medium'),
    title: requiredText(ticketBounds.title.max),
    content: requiredText(ticketBounds.content.max),
  })
  .superRefine(
    (value, ctx) => {
      // docs/product.md: besides each field's own message, the form as a whole says what a ticket needs.
      const raw = value as Partial<Record<(typeof required)[number], unknown>>
      if (required.some((field) => typeof raw[field] !== 'string' || !(raw[field] as string).trim())) {
        ctx.addIssue({ code: 'custom', message: 'tickets:create.missing', path: [] })
      }
    },
    // Runs even when a field already failed, so a missing field also gets the summary.
    { when: () => true },
  )

export const ticketReplySchema = z.object({
  content: requiredText(ticketBounds.content.max, 'tickets:detail.replyRequired'),
})

/** The close and reopen buttons of the list and the detail screen. */
export const ticketStatusIntents = ['close', 'reopen'] as const
export type TicketStatusIntent = (typeof ticketStatusIntents)[number]
export const ticketStatusSchema = z.object({
  intent: z.enum(ticketStatusIntents),
  id: idInputSchema,
})
