/** Forms of the API keys screen; bounds from the relay contract. */
import { z } from 'zod'
import { apiKeyBounds, apiKeyLimitBounds, idInputSchema, modelPatternSchema, networkSchema, type ApiKeyLimits } from '#relay/contract/index.ts'
import { calendarDateSchema } from '#relay/contract/days.ts'
import { dateOf, dayMs, startOfDay } from '#app/utils/utc8-days.ts'
import { requiredText } from './auth.ts'
import { limitField } from './limit-field.ts'

export const createApiKeySchema = z.object({ name: requiredText(apiKeyBounds.name.max) })

export const deleteApiKeySchema = z.object({ id: idInputSchema })

/** Model patterns or addresses typed one per line or separated by spaces or commas; blank for none. */
export function listItemsOf(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,，]+/).filter(Boolean)
}

/**
 * A key's controls as the form types them: a date for the expiry (the key works through that day,
 * UTC+8, the relay's day for quotas), blanks for no limit. `limitsBody` turns it into the relay's body.
 */
export const apiKeyLimitsFormSchema = z.object({
  id: idInputSchema,
  enabled: z.boolean().optional(),
  // A day already past is the relay's to refuse (its clock decides, api_key_expiry_past).
  expires: calendarDateSchema('apiKeys:limits.errors.date').optional(),
  pointsQuota: limitField(apiKeyLimitBounds.points),
  dailyPointsQuota: limitField(apiKeyLimitBounds.points),
  rpmLimit: limitField(apiKeyLimitBounds.rpm),
  concurrencyLimit: limitField(apiKeyLimitBounds.concurrency),
  allowedModels: z
    .string()
    .max(4000, 'validation:tooLong')
    .optional()
    .refine((text) => listItemsOf(text).length <= apiKeyLimitBounds.models.max, 'apiKeys:limits.errors.tooManyModels')
    .refine((text) => listItemsOf(text).every((pattern) => modelPatternSchema.safeParse(pattern).success), 'apiKeys:limits.errors.pattern'),
  allowedIps: z
    .string()
    .max(4000, 'validation:tooLong')
    .optional()
    .refine((text) => listItemsOf(text).length <= apiKeyLimitBounds.networks.max, 'apiKeys:limits.errors.tooManyNetworks')
    .refine((text) => listItemsOf(text).every((network) => networkSchema.safeParse(network).success), 'apiKeys:limits.errors.network'),
})
export type ApiKeyLimitsForm = z.infer<typeof apiKeyLimitsFormSchema>

/** The first moment after the chosen day, in UTC+8. */
export function expiryOfDate(date: string): number {
  return startOfDay(date) + dayMs
}

/** The last day (UTC+8) a key with this expiry works, as the date input shows it. */
export function dateOfExpiry(expires: number): string {
  return dateOf(expires - 1)
}

export function limitsBody(form: ApiKeyLimitsForm): ApiKeyLimits {
  const patterns = listItemsOf(form.allowedModels)
  const networks = listItemsOf(form.allowedIps)
  return {
    enabled: form.enabled === true,
    expires_timestamp: form.expires ? expiryOfDate(form.expires) : null,
    points_quota: form.pointsQuota ?? null,
    daily_points_quota: form.dailyPointsQuota ?? null,
    allowed_models: patterns.length > 0 ? patterns : null,
    rpm_limit: form.rpmLimit ?? null,
    concurrency_limit: form.concurrencyLimit ?? null,
    allowed_ips: networks.length > 0 ? networks : null,
  }
}
