/**
 * Forms of the console's catalogue pages (packages, teams, resource links, the referral rule,
 * OAuth clients): bounds and choices from the relay contract, messages are translation keys.
 */
import { z } from 'zod'
import { oauthClientNameMax, packageBounds, packageKinds, redirectUriProblem, referralRuleSchema, resourceBounds, teamNameMax } from '#relay/contract/index.ts'
import { requiredText, usernameField } from './auth.ts'

const numberMessage = 'admin:catalog.wholeNumber'

/** A whole number typed into a text field, `min`–`max`. */
const wholeNumber = (min: number, max: number) =>
  z.string({ error: numberMessage }).trim().regex(/^-?\d{1,10}$/, numberMessage).transform(Number).pipe(z.number().min(min, numberMessage).max(max, numberMessage))

const optionalText = (max: number) => z.string().trim().max(max, 'validation:tooLong').optional().transform((text) => text ?? '')

const perLanguage = <S extends z.ZodType>(text: S) => z.object({ zh: text, en: text, ja: text })

const priceMessage = 'admin:catalog.packages.priceInvalid'

/** Prices are typed in yuan with up to two decimals and sent in fen. */
const yuan = z
  .string({ error: priceMessage })
  .trim()
  .regex(/^\d{1,7}(\.\d{1,2})?$/, priceMessage)
  .transform((text) => Math.round(Number(text) * 100))
  .pipe(z.number().max(packageBounds.price.max, priceMessage))

export const packageFormSchema = z.object({
  name: perLanguage(requiredText(packageBounds.name.max, 'admin:catalog.packages.nameRequired')),
  description: perLanguage(optionalText(packageBounds.description.max)),
  points_limit: wholeNumber(1, packageBounds.points.max),
  hour_points: wholeNumber(0, packageBounds.points.max),
  validity_days: wholeNumber(1, packageBounds.validityDays.max),
  price: yuan,
})

export const newPackageFormSchema = packageFormSchema.extend({
  code: z
    .string({ error: 'admin:catalog.packages.codeInvalid' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{2,32}$/, 'admin:catalog.packages.codeInvalid'),
  kind: z.enum(packageKinds),
})

export const newTeamSchema = z.object({
  name: requiredText(teamNameMax, 'admin:catalog.teams.nameRequired'),
  package_code: requiredText(32),
  owner: usernameField,
})

export const renewTeamSchema = z.object({ package_code: requiredText(32) })

export const resourceFormSchema = z.object({
  title: requiredText(resourceBounds.title.max, 'admin:catalog.resources.titleRequired'),
  url: z
    .string({ error: 'admin:catalog.resources.urlInvalid' })
    .trim()
    .max(resourceBounds.url.max, 'validation:tooLong')
    .pipe(z.url({ protocol: /^https?$/, error: 'admin:catalog.resources.urlInvalid' })),
  description: z.string().trim().max(resourceBounds.description.max, 'validation:tooLong').optional(),
  sort_order: wholeNumber(-1_000_000, 1_000_000).optional().transform((order) => order ?? 0),
})

/** Each amount of the rule as a text field, with the relay's bounds (contract/referral.ts). */
const rewardForm = z.object(
  Object.fromEntries(
    Object.entries(referralRuleSchema.shape.first.shape).map(([field, schema]) => [field, wholeNumber(schema.minValue ?? 0, schema.maxValue ?? 0)]),
  ) as Record<keyof z.infer<typeof referralRuleSchema.shape.first>, ReturnType<typeof wholeNumber>>,
)
export const referralRuleFormSchema = z.object({ first: rewardForm, later: rewardForm })

export const oauthClientFormSchema = z.object({
  name: requiredText(oauthClientNameMax, 'admin:catalog.clients.nameRequired'),
  /** One per line (or separated by spaces); the relay says which one it refuses. */
  redirect_uris: z
    .string()
    .max(20 * 513, 'validation:tooLong')
    .optional()
    .transform((text) => (text ?? '').split(/\s+/).filter(Boolean))
    .refine((uris) => uris.every((uri) => redirectUriProblem(uri) === null), 'admin:catalog.clients.redirectInvalid'),
  first_party: z.boolean().optional().transform((checked) => checked === true),
})
