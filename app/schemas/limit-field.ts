import { z } from 'zod'

/** A limit typed as a whole number, or left blank for none (a key's quotas, a team member's caps). */
export const limitField = (bounds: { min: number; max: number }) =>
  z
    .number({ error: 'validation:number' })
    .int('validation:wholeNumber')
    .min(bounds.min, 'validation:numberTooSmall')
    .max(bounds.max, 'validation:numberTooLarge')
    .optional()
