/**
 * Form and query schemas of the sign-in screens for external clients. The consent screens read
 * their request from the query string with the relay's own body schema, so the portal refuses
 * exactly what the relay would; the device code takes what a person types (any case, hyphen or
 * not) and yields the canonical XXXX-XXXX.
 */
import { z } from 'zod'
import { authorizeCodeBody, normaliseDeviceCode } from '#relay/contract/oauth.ts'

/** The consent screens' query: everything `authorize` needs but the decision. */
export const consentRequestSchema = authorizeCodeBody.omit({ decision: true })
export type ConsentRequest = z.output<typeof consentRequestSchema>

export const consentDecisionSchema = z.enum(['approve', 'deny'])

const deviceCodeField = z
  .string({ error: 'oauth:device.codeRequired' })
  .trim()
  .min(1, 'oauth:device.codeRequired')
  .max(32, 'oauth:device.codeFormat')
  .refine((value) => normaliseDeviceCode(value) !== null, 'oauth:device.codeFormat')
  .transform((value) => normaliseDeviceCode(value) ?? value)

export const deviceIntents = ['verify', 'approve', 'deny'] as const
export const deviceCodeSchema = z.object({ code: deviceCodeField })
