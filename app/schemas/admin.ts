/** Forms of the operator console; bounds and choices from the relay contract, messages are translation keys. */
import { z } from 'zod'
import { redeemBatchMax, maxPointsChange, setUserKeysBody, operatorTicketStatuses, pointsAdjustments, ticketBounds, userStatuses, userTypes } from '#relay/contract/index.ts'
import { emailField, requiredText, usernameField } from './auth.ts'

export const adminReplySchema = z.object({
  content: requiredText(ticketBounds.content.max, 'admin:ticket.replyRequired'),
  /** Empty: the status stays as it is. */
  status: z.enum(operatorTicketStatuses).optional(),
})

export const adminTicketStatusSchema = z.object({ status: z.enum(operatorTicketStatuses) })

export const denyResetSchema = z.object({
  content: z.string().trim().max(ticketBounds.content.max, 'validation:tooLong').optional(),
})

export const userTypeSchema = z.object({ user_type: z.enum(userTypes) })
export const userStatusSchema = z.object({ status: z.enum(userStatuses) })
/** The ticked keys of the user's page; none ticked is the one mistake an operator can make here. */
export const userKeysSchema = setUserKeysBody.pick({ key_ids: true })

const amountMessage = 'admin:user.amountRequired'

export const adjustPointsSchema = z.object({
  direction: z.enum(pointsAdjustments),
  amount: z
    .string({ error: amountMessage })
    .trim()
    .regex(/^\d{1,9}$/, amountMessage)
    .transform(Number)
    .pipe(z.number().min(1, amountMessage).max(maxPointsChange, amountMessage)),
  reason: requiredText(255, 'admin:user.reasonRequired'),
})

const countMessage = 'admin:codes.countRequired'
const daysMessage = 'admin:codes.expiresInvalid'

export const generateCodesSchema = z.object({
  package_code: requiredText(32),
  count: z.string({ error: countMessage }).trim().regex(/^\d{1,5}$/, countMessage).transform(Number).pipe(z.number().min(1, countMessage).max(redeemBatchMax, countMessage)),
  /** Empty: the codes never expire. */
  expires_days: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, daysMessage)
    .transform(Number)
    .pipe(z.number().min(1, daysMessage).max(3650, daysMessage))
    .optional(),
})

/** A tag added on the console's ticket page; the relay trims and bounds it the same way. */
export const ticketTagFormSchema = z.object({ tag: requiredText(ticketBounds.tags.tagMax, 'admin:ticket.tagRequired') })

/** A user the console creates; the relay generates the password and answers it once. */
export const createUserSchema = z.object({
  username: usernameField,
  email: emailField(),
  user_type: z.enum(userTypes).default('normal'),
})
