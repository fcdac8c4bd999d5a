/**
 * Form schemas for the auth screens. Bounds come from the relay contract, so the portal
 * rejects exactly what the relay would; every message is a translation key (validation ns).
 */
import { z } from 'zod'
import { bounds } from '#relay/contract/accounts.ts'

const required = 'validation:required'

export const requiredText = (max: number, message = required) =>
  z.string({ error: message }).trim().min(1, message).max(max, 'validation:tooLong')

export const emailField = (message = 'validation:emailRequired') =>
  z.string({ error: message }).trim().min(1, message).max(bounds.email.max, 'validation:tooLong').pipe(z.email('validation:emailInvalid'))

export const usernameField = z
  .string({ error: required })
  .trim()
  .min(bounds.username.min, 'validation:usernameLength')
  .max(bounds.username.max, 'validation:usernameLength')
  .regex(/^[A-Za-z0-9_-]+$/, 'validation:usernameChars')

export const passwordField = z
  .string({ error: required })
  .min(bounds.password.min, 'validation:passwordLength')
  .max(bounds.password.max, 'validation:passwordLength')

export const codeField = z.string({ error: 'validation:codeRequired' }).trim().regex(/^\d{6}$/, 'validation:codeFormat')

/**
 * Zod skips an object's refinements while any field is invalid; a password mismatch should show
 * as soon as both passwords are typed, whatever else is still missing.
 */
function bothPresent(a: string, b: string) {
  return ({ value }: { value: unknown }) => {
    const v = value as Record<string, unknown> | undefined
    return typeof v?.[a] === 'string' && typeof v?.[b] === 'string'
  }
}

export const loginSchema = z.object({
  username: requiredText(bounds.email.max, 'validation:usernameRequired'),
  password: z.string({ error: 'validation:passwordRequired' }).min(1, 'validation:passwordRequired').max(bounds.password.max),
  remember: z.boolean().optional(),
  redirectTo: z.string().optional(),
})

export const sendCodeSchema = z.object({ email: emailField('validation:emailFirst') })

export const checkAvailabilitySchema = z.object({
  username: usernameField.optional(),
  email: z.string().trim().max(bounds.email.max).pipe(z.email('validation:emailInvalid')).optional(),
})

export const registerSchema = z
  .object({
    username: usernameField,
    email: emailField(),
    code: codeField,
    password: passwordField,
    confirmPassword: z.string({ error: 'validation:confirmRequired' }),
    inviteCode: z
      .string()
      .trim()
      .min(bounds.inviteCode.min, 'validation:inviteCodeFormat')
      .max(bounds.inviteCode.max, 'validation:inviteCodeFormat')
      .regex(/^[A-Za-z0-9]+$/, 'validation:inviteCodeFormat')
      .optional(),
    agree: z.boolean({ error: 'validation:agreeRequired' }).refine((v) => v, 'validation:agreeRequired'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation:passwordsMismatch',
    when: bothPresent('password', 'confirmPassword'),
  })

export const resetSchema = z
  .object({
    email: emailField('validation:emailFirst'),
    code: codeField,
    newPassword: passwordField,
    confirmPassword: z.string({ error: 'validation:confirmRequired' }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation:passwordsMismatch',
    when: bothPresent('newPassword', 'confirmPassword'),
  })

export const registerIntents = ['send-code', 'check', 'register'] as const
export type RegisterIntent = (typeof registerIntents)[number]

export function registerSchemaFor(intent: FormDataEntryValue | null) {
  if (intent === 'send-code') return sendCodeSchema
  if (intent === 'check') return checkAvailabilitySchema
  return registerSchema
}

export function resetSchemaFor(intent: FormDataEntryValue | null) {
  return intent === 'send-code' ? sendCodeSchema : resetSchema
}
