/** Forms of the profile screen; bounds from the relay contract, messages are translation keys. */
import { z } from 'zod'
import { bounds } from '#relay/contract/index.ts'
import { passwordField } from './auth.ts'

const optionalText = (max: number) => z.string().trim().max(max, 'validation:tooLong').optional()

export const profileSchema = z.object({
  name: optionalText(bounds.name.max),
  phone: optionalText(bounds.phone.max),
  company: optionalText(bounds.company.max),
  avatar: z
    .url({ protocol: /^https?$/, error: 'profile:edit.avatarInvalid' })
    .max(bounds.avatar.max, 'validation:tooLong')
    .optional(),
})

export const changePasswordSchema = z
  .object({
    oldPassword: z
      .string({ error: 'validation:passwordRequired' })
      .min(1, 'validation:passwordRequired')
      .max(bounds.password.max, 'validation:passwordLength'),
    newPassword: passwordField,
    confirmPassword: z.string({ error: 'validation:confirmRequired' }),
  })
  // docs/product.md's own wording for this form.
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'profile:password.mismatch' })

export const profileIntents = ['profile', 'password'] as const
export type ProfileIntent = (typeof profileIntents)[number]
