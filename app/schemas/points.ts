/**
 * Form schemas of the points screen. Bounds come from the relay contract, so the portal refuses
 * exactly what the relay would; messages are translation keys.
 */
import { z } from 'zod'
import { pointsBounds, resetReasons } from '#relay/contract/index.ts'

export const resetRequestSchema = z.object({
  reason: z.enum(resetReasons, { error: 'points:reset.reasonRequired' }),
  description: z
    .string({ error: 'points:reset.descriptionRequired' })
    .trim()
    .min(pointsBounds.resetDescription.min, 'points:reset.descriptionRequired')
    .max(pointsBounds.resetDescription.max, 'validation:tooLong'),
})
