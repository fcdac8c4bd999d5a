/**
 * Form schemas of the subscription screen. Formats come from the relay contract, so the portal
 * refuses exactly what the relay would; messages are translation keys.
 */
import { z } from 'zod'
import { idInputSchema, maxPointsChange, parseTeamCode, redeemCodeSchema } from '#relay/contract/index.ts'
import { limitField } from '#app/schemas/limit-field.ts'

export const redeemCodeField = z
  .string({ error: 'subscription:redeem.required' })
  .trim()
  .min(1, { error: 'subscription:redeem.required', abort: true })
  .refine((code) => redeemCodeSchema.safeParse(code).success, 'subscription:redeem.invalid')

/** docs/product.md: a team code that is not base64 is refused here, with its own message. */
export const teamCodeField = z
  .string({ error: 'subscription:join.required' })
  .trim()
  .min(1, { error: 'subscription:join.required', abort: true })
  .refine((code) => parseTeamCode(code) !== null, 'subscription:join.formatInvalid')

export const redeemFormSchema = z.object({ redeemCode: redeemCodeField })
export const teamFormSchema = z.object({ teamCode: teamCodeField })

/** The team owner's caps on one member; blank for none. */
const capBounds = { min: 1, max: maxPointsChange }
export const memberCapsFormSchema = z.object({
  memberId: idInputSchema,
  hourlyCap: limitField(capBounds),
  dailyCap: limitField(capBounds),
})

/**
 * The subscription screen's five forms, told apart by their submit button's `intent`: one
 * schema, so the action reads each form's fields with their types, no casts.
 */
export const subscriptionFormSchema = z.discriminatedUnion('intent', [
  redeemFormSchema.extend({ intent: z.literal('validate-redeem') }),
  redeemFormSchema.extend({ intent: z.literal('redeem') }),
  teamFormSchema.extend({ intent: z.literal('validate-team') }),
  teamFormSchema.extend({ intent: z.literal('join-team') }),
  memberCapsFormSchema.extend({ intent: z.literal('member-caps') }),
])
export type SubscriptionIntent = z.infer<typeof subscriptionFormSchema>['intent']
export const subscriptionIntents: readonly SubscriptionIntent[] = ['validate-redeem', 'redeem', 'validate-team', 'join-team', 'member-caps']
