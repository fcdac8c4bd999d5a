/**
 * Account calls (docs/architecture.md §5), declared once
 * (`accountEndpoints`, endpoint.ts). The portal reuses the same bounds in its forms.
 *
 * Length bounds (docs/product.md leaves them open; docs/operating.md "Field bounds" documents them):
 * username 3–32 of letters, digits, `_` and `-` (no `@`, so login can tell it from an e-mail);
 * e-mail up to 254; password 8–128; e-mail codes 6 digits; invite code 4–32 letters and digits;
 * name 64, phone 32, company 128, avatar an http(s) URL up to 512.
 */
import { z } from 'zod'
// Types only (erased at runtime): lets `.meta()` carry OpenAPI overrides without bundling zod-openapi.
import type {} from 'zod-openapi'
import { endpoint } from './endpoint.ts'

export const bounds = {
  username: { min: 3, max: 32 },
  email: { max: 254 },
  password: { min: 8, max: 128 },
  code: { length: 6 },
  inviteCode: { min: 4, max: 32 },
  name: { max: 64 },
  phone: { max: 32 },
  company: { max: 128 },
  avatar: { max: 512 },
} as const

export const usernameSchema = z
  .string()
  .trim()
  .min(bounds.username.min)
  .max(bounds.username.max)
  .regex(/^[A-Za-z0-9_-]+$/)
  // Examples here reach the API reference's examples and curl commands (docs/decisions/100-one-declaration-per-call.md).
  .meta({ examples: ['alice'] })
export const emailSchema = z.string().trim().toLowerCase().max(bounds.email.max).pipe(z.email()).meta({ examples: ['alice@example.com'] })
export const passwordSchema = z.string().min(bounds.password.min).max(bounds.password.max).meta({ examples: ['correct horse battery'] })
export const emailCodeSchema = z.string().trim().regex(/^\d{6}$/).meta({ examples: ['123456'] })
export const inviteCodeSchema = z
  .string()
  .trim()
  .min(bounds.inviteCode.min)
  .max(bounds.inviteCode.max)
  .regex(/^[A-Za-z0-9]+$/)
  .meta({ examples: ['ALICE2026'] })

export const userTypes = ['normal', 'vip', 'team', 'admin'] as const
export type UserType = (typeof userTypes)[number]
export const userStatuses = ['active', 'disabled'] as const
export type UserStatus = (typeof userStatuses)[number]

/**
 * What an operator sells: a personal plan, a team's shared pool, or a top-up (`points_limit` points
 * added to the personal plan in force, nothing replaced; its refill and validity unused). A
 * subscription's package is never a top-up.
 */
export const packageKinds = ['personal', 'team', 'topup'] as const
export type PackageKind = (typeof packageKinds)[number]
/** Offered (on /pricing, open to new redeem codes), withdrawn, or withdrawn and out of the console's default list. */
export const packageListings = ['listed', 'unlisted', 'archived'] as const
export type PackageListing = (typeof packageListings)[number]
/**
 * `normal` is the healthy state (docs/architecture.md §6: the portal treats `active` alike); `none` means the
 * user holds no package at all.
 */
export const subscriptionStatuses = ['normal', 'expired', 'disabled', 'none'] as const
export type SubscriptionStatus = (typeof subscriptionStatuses)[number]

export const loginBody = z.object({
  /** Username or e-mail. */
  username: z.string().trim().min(1).max(bounds.email.max).meta({ examples: ['alice'] }),
  password: z.string().min(1).max(bounds.password.max).meta({ examples: ['correct horse battery'] }),
  /** The `device_token` an earlier sign-in of this browser handed back: its attempts are then limited per device, not by the account's delay. */
  device_token: z.string().max(2048).optional(),
})

export const registerBody = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  code: emailCodeSchema,
  invite_code: inviteCodeSchema.optional(),
})

export const refreshBody = z.object({ refresh_token: z.string().min(1).max(512) })
export const logoutBody = z.object({ refresh_token: z.string().min(1).max(512).optional() })

export const checkUsernameQuery = z.object({ username: z.string().trim().min(1).max(bounds.username.max) })
export const checkEmailQuery = z.object({ email: z.string().trim().min(1).max(bounds.email.max) })

export const sendCodeBody = z.object({ email: emailSchema })

export const resetPasswordBody = z
  .object({
    email: emailSchema,
    code: emailCodeSchema,
    new_password: passwordSchema,
    confirm_password: z.string().max(bounds.password.max),
  })
  .refine((b) => b.new_password === b.confirm_password, {
    path: ['confirm_password'],
    message: 'passwords do not match',
  })

/** Changing the password signs out every other session; the reply carries fresh tokens for this one. */
export const changePasswordBody = z.object({
  old_password: z.string().min(1).max(bounds.password.max),
  new_password: passwordSchema,
})

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional()
export const profileBody = z.object({
  name: optionalText(bounds.name.max),
  phone: optionalText(bounds.phone.max),
  company: optionalText(bounds.company.max),
  avatar: z
    .union([z.url({ protocol: /^https?$/ }).max(bounds.avatar.max), z.literal('')])
    .nullable()
    .optional(),
})

/* Replies: they document the relay, check its every reply in tests, and are what the portal parses replies with. */

/** A 64-bit id: a decimal string in JS, a bare integer on the wire (json.ts, docs/decisions/010-ids-strings-inside-bare-numbers-on-the-wire.md). */
export const idSchema = z
  .string()
  .regex(/^\d+$/)
  .meta({ override: { type: 'integer', format: 'int64' } })
/** Epoch milliseconds. */
export const timestampSchema = z.int()

/** A user as every call returns it. */
export const userSchema = z
  .object({
    id: idSchema,
    username: z.string(),
    email: z.string(),
    user_type: z.enum(userTypes),
    status: z.enum(userStatuses),
    invite_code: z.string(),
    invited_by: idSchema.nullable(),
    remark: z.string().nullable(),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
    avatar: z.string().nullable(),
    create_timestamp: timestampSchema,
    last_login_timestamp: timestampSchema.nullable(),
    update_timestamp: timestampSchema,
  })
  .meta({ id: 'User' })
export type User = z.infer<typeof userSchema>

/**
 * When the points run out at the last hour's pace (`hourly_use`, the account's use: a team's pool
 * counts every member), hourly refills included; null when the balance is not falling or lasts
 * past the package's end. `next_refill_points`: what the refill at `next_refill_timestamp` adds.
 */
export const pointsForecastSchema = z
  .object({
    hourly_use: z.int(),
    runs_out_timestamp: timestampSchema.nullable(),
    next_refill_points: z.int(),
  })
  .meta({ id: 'PointsForecast' })
export type PointsForecast = z.infer<typeof pointsForecastSchema>

/**
 * The points/package block of user info and login (docs/architecture.md §6); defaults when the
 * user has no package (status `none`). `total_points` is the package's points (its limit),
 * `remaining_points` the spendable balance (frozen points excluded), `used_points` what the user
 * spent in the current subscription (a team member: their own share of the pool),
 * `total_used_points` what the user spent ever.
 */
export const pointsBlockSchema = z
  .object({
    total_points: z.int(),
    remaining_points: z.int(),
    used_points: z.int(),
    total_used_points: z.int(),
    hour_points: z.int(),
    package_id: idSchema.nullable(),
    status: z.string(),
    start_timestamp: timestampSchema.nullable(),
    end_timestamp: timestampSchema.nullable(),
    package_name: z.string().nullable(),
    package_code: z.string().nullable(),
    validity_days: z.int(),
    description: z.string().nullable(),
    /** Cap of the balance: hourly refills stop there. */
    points_limit: z.int(),
    /** Reserved for calls in flight; not part of remaining_points. */
    frozen_points: z.int(),
    /** Start of the current refill hour; null without a package. */
    last_refill_timestamp: timestampSchema.nullable(),
    /** When the next hour_points arrive; null without a package or after its end. */
    next_refill_timestamp: timestampSchema.nullable(),
    /** Whole days until end_timestamp, rounded up; 0 without a package. */
    remaining_days: z.int(),
    package_kind: z.enum(packageKinds).nullable(),
    /** The team whose shared pool this is, for team members. */
    team_id: idSchema.nullable(),
    forecast: pointsForecastSchema,
  })
  .meta({ id: 'PointsBlock' })
export type PointsBlock = z.infer<typeof pointsBlockSchema>

/**
 * One subscription the user holds or held (user info `subscriptions`, newest first). For a team
 * member, the team's subscription: points are the shared pool's, `used_points` the member's own.
 */
export const subscriptionSchema = z
  .object({
    id: idSchema,
    package_id: idSchema,
    package_name: z.string(),
    package_code: z.string(),
    package_kind: z.enum(packageKinds),
    team_id: idSchema.nullable(),
    team_name: z.string().nullable(),
    status: z.enum(['normal', 'expired', 'disabled']),
    total_points: z.int(),
    points_limit: z.int(),
    /** The balance while in force; 0 once ended (its points expired). */
    remaining_points: z.int(),
    used_points: z.int(),
    hour_points: z.int(),
    validity_days: z.int(),
    start_timestamp: timestampSchema,
    end_timestamp: timestampSchema,
    remaining_days: z.int(),
    description: z.string().nullable(),
  })
  .meta({ id: 'Subscription' })
export type Subscription = z.infer<typeof subscriptionSchema>

export const tokenPairSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    /** Seconds the access token lives. */
    expires_in: z.int(),
    /** Seconds the refresh token lives. */
    refresh_expires_in: z.int(),
  })
  .meta({ id: 'TokenPair' })
export type TokenPair = z.infer<typeof tokenPairSchema>

export const loginDataSchema = tokenPairSchema
  .extend({
    user: userSchema,
    login_success: z.literal(true),
    points: pointsBlockSchema,
    /** Keep it with the browser and send it with its next sign-in (`device_token`). */
    device_token: z.string(),
  })
  .meta({ id: 'LoginData' })
export type LoginData = z.infer<typeof loginDataSchema>

/**
 * The password was right and the account signs in with a second factor: no session yet, only a
 * challenge to send with the code to `POST /api/user/login/two-factor` within `expires_in` seconds.
 */
export const twoFactorChallengeSchema = z
  .object({ two_factor_required: z.literal(true), challenge: z.string(), expires_in: z.int() })
  .meta({ id: 'TwoFactorChallenge' })
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>

export const userInfoSchema = z
  .object({
    user: userSchema,
    points: pointsBlockSchema,
    subscriptions: z.array(subscriptionSchema),
    /** `must_enrol`: the user is an admin, operators require a second factor of admins and this one has none. */
    two_factor: z.object({ enabled: z.boolean(), must_enrol: z.boolean() }),
  })
  .meta({ id: 'UserInfo' })
export type UserInfo = z.infer<typeof userInfoSchema>

export const availabilitySchema = z.object({ available: z.boolean() })
export type Availability = z.infer<typeof availabilitySchema>

const okSchema = z.object({ ok: z.literal(true) })
/** A code on its way; another may be asked for `resend_after` seconds from now (the send-code button counts them). */
const codeSentSchema = z.object({ ok: z.literal(true), resend_after: z.int().positive() })

const tag = 'accounts'

export const accountEndpoints = {
  login: endpoint({
    method: 'post',
    path: '/api/user/login',
    summary: 'Sign in with username or e-mail and password',
    description: 'An account with two-factor sign-in answers a challenge instead of tokens: send it with a code to `POST /api/user/login/two-factor`.',
    tag,
    auth: 'none',
    body: loginBody,
    response: z.union([loginDataSchema, twoFactorChallengeSchema]),
    errors: ['invalid_credentials', 'account_disabled', 'rate_limited'],
  }),
  register: endpoint({
    method: 'post',
    path: '/api/user/register',
    summary: 'Register with the e-mailed code; signs the new user in',
    description: 'An invite code binds the new user to its owner permanently.',
    tag,
    auth: 'none',
    body: registerBody,
    response: loginDataSchema,
    errors: ['invite_code_invalid', 'username_taken', 'email_taken', 'code_invalid', 'code_expired', 'code_attempts_exceeded', 'rate_limited'],
  }),
  refresh: endpoint({
    method: 'post',
    path: '/api/user/refresh',
    summary: 'Exchange a refresh token for a new token pair',
    description: 'The refresh token is rotated; the old one keeps working for a short grace window so parallel refreshes all succeed.',
    tag,
    auth: 'none',
    body: refreshBody,
    response: tokenPairSchema,
    errors: ['refresh_invalid', 'rate_limited'],
  }),
  logout: endpoint({
    method: 'post',
    path: '/api/user/logout',
    summary: 'Sign out: the refresh token (and its rotations) stop working',
    description: 'Needs no access token, so an expired session can still sign out.',
    tag,
    auth: 'none',
    body: logoutBody,
    response: okSchema,
  }),
  sendRegisterCode: endpoint({
    method: 'post',
    path: '/api/auth/send-register-code',
    summary: 'E-mail a 6-digit registration code',
    tag,
    auth: 'none',
    body: sendCodeBody,
    response: codeSentSchema,
    errors: ['email_taken', 'rate_limited', 'unavailable'],
  }),
  sendResetCode: endpoint({
    method: 'post',
    path: '/api/auth/send-reset-code',
    summary: 'E-mail a 6-digit password reset code',
    description: 'Answers the same, in the same time, whether or not the address is registered; only a registered one gets a mail, sent after the answer.',
    tag,
    auth: 'none',
    body: sendCodeBody,
    response: codeSentSchema,
    errors: ['rate_limited'],
    idempotent: true,
  }),
  resetPassword: endpoint({
    method: 'post',
    path: '/api/auth/reset-password',
    summary: 'Set a new password with the e-mailed reset code',
    description: 'Ends every session of the user.',
    tag,
    auth: 'none',
    body: resetPasswordBody,
    response: okSchema,
    errors: ['code_invalid', 'code_expired', 'code_attempts_exceeded', 'rate_limited'],
    idempotent: true,
  }),
  info: endpoint({
    method: 'get',
    path: '/api/user/info',
    summary: 'The signed-in user, their points/package block and subscriptions',
    tag,
    auth: 'user',
    response: userInfoSchema,
  }),
  checkUsername: endpoint({
    method: 'get',
    path: '/api/user/check/username',
    summary: 'Is this username free to register?',
    description: 'A malformed username is reported as not available.',
    tag,
    auth: 'none',
    query: checkUsernameQuery,
    response: availabilitySchema,
    errors: ['rate_limited'],
  }),
  checkEmail: endpoint({
    method: 'get',
    path: '/api/user/check/email',
    summary: 'Is this e-mail address free to register?',
    description: 'A malformed address is reported as not available.',
    tag,
    auth: 'none',
    query: checkEmailQuery,
    response: availabilitySchema,
    errors: ['rate_limited'],
  }),
  profile: endpoint({
    method: 'put',
    path: '/api/user/profile',
    summary: 'Update name, phone, company and avatar',
    description: 'Only the fields present change; an empty string or null clears one.',
    tag,
    auth: 'user',
    scope: 'session',
    body: profileBody,
    response: userSchema,
  }),
  password: endpoint({
    method: 'put',
    path: '/api/user/password',
    summary: 'Change the password; returns fresh tokens for this session',
    description: 'Every other session ends: their access tokens stop working at once and their refresh tokens are revoked.',
    tag,
    auth: 'user',
    scope: 'session',
    body: changePasswordBody,
    response: tokenPairSchema,
    errors: ['old_password_wrong'],
  }),
}
