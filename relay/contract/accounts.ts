/**
 * Account calls of docs/architecture.md §5.6 and docs/architecture.md §5. The zod schemas validate the relay's input and
 * generate its OpenAPI document; the portal reuses the same bounds in its forms.
 *
 * Length bounds (docs/product.md leaves them open; README "Field bounds" documents them):
 * username 3–32 of letters, digits, `_` and `-` (no `@`, so login can tell it from an e-mail);
 * e-mail up to 254; password 8–128; e-mail codes 6 digits; invite code 4–32 letters and digits;
 * name 64, phone 32, company 128, avatar an http(s) URL up to 512.
 */
import { z } from 'zod'
// Types only (erased at runtime): lets `.meta()` carry OpenAPI overrides without bundling zod-openapi.
import type {} from 'zod-openapi'

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
export const emailSchema = z.string().trim().toLowerCase().max(bounds.email.max).pipe(z.email())
export const passwordSchema = z.string().min(bounds.password.min).max(bounds.password.max)
export const emailCodeSchema = z.string().trim().regex(/^\d{6}$/)
export const inviteCodeSchema = z
  .string()
  .trim()
  .min(bounds.inviteCode.min)
  .max(bounds.inviteCode.max)
  .regex(/^[A-Za-z0-9]+$/)

export const userTypes = ['normal', 'vip', 'team', 'admin'] as const
export type UserType = (typeof userTypes)[number]
export const userStatuses = ['active', 'disabled'] as const
export type UserStatus = (typeof userStatuses)[number]

/** A user as every call returns it. Ids are 64-bit: strings in JS, bare numbers on the wire. */
export interface User {
  id: string
  username: string
  email: string
  user_type: UserType
  status: UserStatus
  invite_code: string
  invited_by: string | null
  remark: string | null
  name: string | null
  phone: string | null
  company: string | null
  avatar: string | null
  create_timestamp: number
  last_login_timestamp: number | null
  update_timestamp: number
}

/**
 * The points/package block of user info and login (docs/architecture.md §6); defaults when the user has no
 * package (status `none`). `total_points` is the package's points (its limit),
 * `remaining_points` the spendable balance (frozen points excluded), `used_points` what the user
 * spent in the current subscription (a team member: their own share of the pool),
 * `total_used_points` what the user spent ever.
 */
export interface PointsBlock {
  total_points: number
  remaining_points: number
  used_points: number
  total_used_points: number
  hour_points: number
  package_id: string | null
  status: string
  start_timestamp: number | null
  end_timestamp: number | null
  package_name: string | null
  package_code: string | null
  validity_days: number
  description: string | null
  /** Cap of the balance: hourly refills stop there (relay/contract/points.ts). */
  points_limit: number
  /** Reserved for calls in flight; not part of remaining_points. */
  frozen_points: number
  /** Start of the current refill hour; null without a package. */
  last_refill_timestamp: number | null
  /** When the next hour_points arrive; null without a package or after its end. */
  next_refill_timestamp: number | null
  /** Whole days until end_timestamp, rounded up; 0 without a package. */
  remaining_days: number
  package_kind: PackageKind | null
  /** The team whose shared pool this is, for team members. */
  team_id: string | null
}

export const packageKinds = ['personal', 'team'] as const
export type PackageKind = (typeof packageKinds)[number]
/**
 * `normal` is the healthy state (docs/architecture.md §6: the portal treats `active` alike); `none` means the
 * user holds no package at all.
 */
export const subscriptionStatuses = ['normal', 'expired', 'disabled', 'none'] as const
export type SubscriptionStatus = (typeof subscriptionStatuses)[number]

/**
 * One subscription the user holds or held (user info `subscriptions`, newest first). For a team
 * member, the team's subscription: points are the shared pool's, `used_points` the member's own.
 */
export interface Subscription {
  id: string
  package_id: string
  package_name: string
  package_code: string
  package_kind: PackageKind
  team_id: string | null
  team_name: string | null
  status: Exclude<SubscriptionStatus, 'none'>
  total_points: number
  points_limit: number
  /** The balance while in force; 0 once ended (its points expired). */
  remaining_points: number
  used_points: number
  hour_points: number
  validity_days: number
  start_timestamp: number
  end_timestamp: number
  remaining_days: number
  description: string | null
}

export interface TokenPair {
  access_token: string
  refresh_token: string
  /** Seconds the access token lives. */
  expires_in: number
  /** Seconds the refresh token lives. */
  refresh_expires_in: number
}

export interface LoginData extends TokenPair {
  user: User
  login_success: true
  points: PointsBlock
}

export interface UserInfo {
  user: User
  points: PointsBlock
  subscriptions: Subscription[]
}

export const loginBody = z.object({
  /** Username or e-mail. */
  username: z.string().trim().min(1).max(bounds.email.max),
  password: z.string().min(1).max(bounds.password.max),
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
export interface Availability {
  available: boolean
}

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

export const accountPaths = {
  login: '/api/user/login',
  register: '/api/user/register',
  info: '/api/user/info',
  refresh: '/api/user/refresh',
  logout: '/api/user/logout',
  checkUsername: '/api/user/check/username',
  checkEmail: '/api/user/check/email',
  sendRegisterCode: '/api/auth/send-register-code',
  sendResetCode: '/api/auth/send-reset-code',
  resetPassword: '/api/auth/reset-password',
  password: '/api/user/password',
  profile: '/api/user/profile',
} as const

/*
 * Response schemas: they document the replies in the relay's OpenAPI document and, in the
 * relay's tests, check every reply. The interfaces above stay the names the portal uses;
 * accounts-schemas.test.ts proves each schema infers exactly its interface.
 */

/** A 64-bit id: a decimal string in JS, a bare integer on the wire (docs/architecture.md §5). */
export const idSchema = z
  .string()
  .regex(/^\d+$/)
  .meta({ override: { type: 'integer', format: 'int64' } })
/** Epoch milliseconds. */
export const timestampSchema = z.int()

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
    points_limit: z.int(),
    frozen_points: z.int(),
    last_refill_timestamp: timestampSchema.nullable(),
    next_refill_timestamp: timestampSchema.nullable(),
    remaining_days: z.int(),
    package_kind: z.enum(packageKinds).nullable(),
    team_id: idSchema.nullable(),
  })
  .meta({ id: 'PointsBlock' })

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

export const tokenPairSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    expires_in: z.int(),
    refresh_expires_in: z.int(),
  })
  .meta({ id: 'TokenPair' })

export const loginDataSchema = tokenPairSchema
  .extend({ user: userSchema, login_success: z.literal(true), points: pointsBlockSchema })
  .meta({ id: 'LoginData' })

export const userInfoSchema = z
  .object({
    user: userSchema,
    points: pointsBlockSchema,
    subscriptions: z.array(subscriptionSchema),
  })
  .meta({ id: 'UserInfo' })

export const availabilitySchema = z.object({ available: z.boolean() })
