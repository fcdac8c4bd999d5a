/** Forms of two-factor sign-in and the security page; messages are translation keys. */
import { z } from 'zod'
import { bounds, idInputSchema, recoveryCodeCount, recoveryCodeSchema, secondFactorCodeSchema } from '#relay/contract/index.ts'
import { codeField } from './auth.ts'

/** A code from the app or a recovery code, as the relay takes it. */
const secondFactorField = z
  .string({ error: 'validation:codeRequired' })
  .trim()
  .min(1, 'validation:codeRequired')
  .pipe(secondFactorCodeSchema.refine((code) => /^\d{6}$/.test(code) || /^[0-9A-Za-z]{5}-?[0-9A-Za-z]{5}$/.test(code), 'validation:secondFactorFormat'))

export const secondFactorSchema = z.object({ code: secondFactorField })

export const enableTwoFactorSchema = z.object({ code: codeField })

export const disableTwoFactorSchema = z.object({
  password: z.string({ error: 'validation:passwordRequired' }).min(1, 'validation:passwordRequired').max(bounds.password.max, 'validation:passwordLength'),
  code: secondFactorField,
})

/** The row a sign-out or revocation names. */
export const rowIdSchema = z.object({ id: idInputSchema })

/** The codes a recovery-codes page posts back to be saved as a file. */
export const recoveryCodesFileSchema = z.array(recoveryCodeSchema).min(1).max(recoveryCodeCount)
