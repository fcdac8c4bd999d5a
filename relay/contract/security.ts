/**
 * Account security (docs/decisions/099-sign-in.md): the second step of a two-factor sign-in, enrolment
 * and removal of the second factor, and the security page's lists with their sign-outs and
 * revocations.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { bounds, idSchema, loginDataSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { oauthScopes } from './oauth-scopes.ts'
import { idPathParams } from './paths.ts'

/** Six digits from the authenticator app, or a recovery code (`xxxxx-xxxxx`). */
export const secondFactorCodeSchema = z.string().trim().min(6).max(16)

export const loginTwoFactorBody = z.object({ challenge: z.string().min(1).max(1024), code: secondFactorCodeSchema })
export const enableTwoFactorBody = z.object({ code: z.string().trim().regex(/^\d{6}$/) })
export const disableTwoFactorBody = z.object({ password: z.string().min(1).max(bounds.password.max), code: secondFactorCodeSchema })
export const regenerateRecoveryCodesBody = z.object({ code: secondFactorCodeSchema })

export const enrolmentSchema = z
  .object({
    /** Base 32, to type into an app that cannot scan. */
    secret: z.string(),
    /** What the QR code holds. */
    otpauth_uri: z.string(),
  })
  .meta({ id: 'TwoFactorEnrolment' })
export type TwoFactorEnrolment = z.infer<typeof enrolmentSchema>

export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean(),
    /** Operators require a second factor of admins. */
    required: z.boolean(),
    recovery_codes_left: z.int(),
    /** The key being enrolled, until a first code confirms it; never shown again afterwards. */
    enrolment: enrolmentSchema.nullable(),
  })
  .meta({ id: 'TwoFactorStatus' })
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>

/** Ten per enrolment or replacement, each `xxxxx-xxxxx` in Crockford's base 32, lower case. */
export const recoveryCodeCount = 10
export const recoveryCodeSchema = z.string().regex(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/)
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(recoveryCodeSchema).length(recoveryCodeCount) }).meta({ id: 'RecoveryCodes' })

export const sessionSchema = z.object({
  id: idSchema,
  client_ip: z.string(),
  user_agent: z.string(),
  create_timestamp: timestampSchema,
  last_seen_timestamp: timestampSchema,
  /** The session asking. */
  current: z.boolean(),
})
export type AccountSession = z.infer<typeof sessionSchema>

/** `recovery_code`: signed in, with a recovery code in place of the authenticator's code. */
export const signInOutcomes = ['success', 'recovery_code', 'password', 'two_factor'] as const
export type SignInOutcome = (typeof signInOutcomes)[number]
export const signInEventSchema = z.object({
  id: idSchema,
  client_ip: z.string(),
  user_agent: z.string(),
  /** `success` or `recovery_code`, or the step that failed. */
  outcome: z.enum(signInOutcomes),
  timestamp: timestampSchema,
})
export type SignInEvent = z.infer<typeof signInEventSchema>

export const grantSchema = z.object({
  /** The grant (its refresh-token family). */
  id: idSchema,
  client_id: z.string(),
  client_name: z.string(),
  scopes: z.array(z.enum(oauthScopes)),
  create_timestamp: timestampSchema,
  /** The latest refresh. */
  last_used_timestamp: timestampSchema,
  expires_timestamp: timestampSchema.nullable(),
})
export type AccountGrant = z.infer<typeof grantSchema>

export const keyEventSchema = z.object({
  key_id: idSchema,
  name: z.string(),
  last4: z.string(),
  kind: z.enum(['created', 'deleted']),
  timestamp: timestampSchema,
})
export type KeyEvent = z.infer<typeof keyEventSchema>

export const securityOverviewSchema = z
  .object({
    two_factor: z.object({ enabled: z.boolean(), required: z.boolean(), recovery_codes_left: z.int() }),
    /** Open sessions, the most recently seen first. */
    sessions: z.array(sessionSchema),
    /** The newest 50 sign-in attempts, newest first. */
    sign_ins: z.array(signInEventSchema),
    /** External clients' grants still in force. */
    grants: z.array(grantSchema),
    /** The newest 50 creations and deletions of API keys. */
    key_events: z.array(keyEventSchema),
  })
  .meta({ id: 'SecurityOverview' })
export type SecurityOverview = z.infer<typeof securityOverviewSchema>

const okSchema = z.object({ ok: z.literal(true) })
const tag = 'security'

export const securityEndpoints = {
  loginTwoFactor: endpoint({
    method: 'post',
    path: '/api/user/login/two-factor',
    summary: 'Second step of a two-factor sign-in: the challenge and a code',
    description: 'The code is six digits from the authenticator app or an unused recovery code; each works once. Slowed per account like passwords.',
    tag,
    auth: 'none',
    body: loginTwoFactorBody,
    response: loginDataSchema,
    errors: ['two_factor_invalid', 'two_factor_challenge_invalid', 'account_disabled', 'rate_limited'],
  }),
  twoFactor: endpoint({
    method: 'get',
    path: '/api/user/two-factor',
    summary: 'Whether two-factor sign-in is on, and the key being enrolled',
    tag,
    auth: 'user',
    scope: 'session',
    response: twoFactorStatusSchema,
  }),
  startTwoFactor: endpoint({
    method: 'post',
    path: '/api/user/two-factor/setup',
    summary: 'Start enrolling: a new key, replacing one not yet confirmed',
    tag,
    auth: 'user',
    scope: 'session',
    response: enrolmentSchema,
    errors: ['two_factor_enabled'],
  }),
  enableTwoFactor: endpoint({
    method: 'post',
    path: '/api/user/two-factor/enable',
    summary: 'Confirm the enrolment with a first code; returns ten single-use recovery codes, shown once',
    tag,
    auth: 'user',
    scope: 'session',
    body: enableTwoFactorBody,
    response: recoveryCodesSchema,
    errors: ['two_factor_invalid', 'two_factor_enabled', 'two_factor_not_enabled'],
    idempotent: true,
  }),
  disableTwoFactor: endpoint({
    method: 'post',
    path: '/api/user/two-factor/disable',
    summary: 'Turn two-factor sign-in off with the password and a code',
    tag,
    auth: 'user',
    scope: 'session',
    body: disableTwoFactorBody,
    response: okSchema,
    errors: ['old_password_wrong', 'two_factor_invalid', 'two_factor_not_enabled', 'rate_limited'],
  }),
  regenerateRecoveryCodes: endpoint({
    method: 'post',
    path: '/api/user/two-factor/recovery-codes',
    summary: 'Replace the recovery codes with ten new ones, shown once; the old ones stop working',
    description: 'Takes a current code: six digits from the authenticator app or an unused recovery code. Two-factor sign-in stays on. Slowed per account like passwords.',
    tag,
    auth: 'user',
    scope: 'session',
    body: regenerateRecoveryCodesBody,
    response: recoveryCodesSchema,
    errors: ['two_factor_invalid', 'two_factor_not_enabled', 'rate_limited'],
    idempotent: true,
  }),
  overview: endpoint({
    method: 'get',
    path: '/api/user/security',
    summary: 'Sessions, sign-in attempts, client grants and API key events of the account',
    tag,
    auth: 'user',
    scope: 'session',
    response: securityOverviewSchema,
  }),
  endSession: endpoint({
    method: 'delete',
    path: '/api/user/sessions/{id}',
    summary: 'Sign one session out: its tokens stop on their next call',
    tag,
    auth: 'user',
    scope: 'session',
    params: idPathParams,
    response: okSchema,
    errors: ['not_found'],
  }),
  endOtherSessions: endpoint({
    method: 'post',
    path: '/api/user/sessions/end-others',
    summary: 'Sign out every session but this one',
    tag,
    auth: 'user',
    scope: 'session',
    response: z.object({ ended: z.int() }),
  }),
  revokeGrant: endpoint({
    method: 'delete',
    path: '/api/user/grants/{id}',
    summary: "Revoke an external client's grant: its tokens stop on their next call",
    tag,
    auth: 'user',
    scope: 'session',
    params: idPathParams,
    response: okSchema,
    errors: ['not_found'],
  }),
}
