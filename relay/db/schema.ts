/**
 * Table interfaces for Kysely. Each domain area adds its tables here beside its migration in
 * migrations/. Conventions (portable across SQLite and PostgreSQL):
 * - ids are BIGINT snowflakes, typed `string` (see ids.ts);
 * - timestamps are BIGINT epoch milliseconds named `*_timestamp` (or `*_at` for internal ones);
 * - points and counters are INTEGER, typed `number`;
 * - flags are INTEGER 0/1 (SQLite has no boolean type; both drivers then return numbers).
 */
import type { UserStatus, UserType } from '../contract/accounts.ts'
import type { TicketAuthorKind, TicketPriority, TicketStatus, TicketType } from '../contract/tickets.ts'

/** Fixed-window counters of the rate limiter (http/rate-limit.ts). */
export interface RateLimitsTable {
  /** `<rule name>:<subject>`, e.g. `login-ip:203.0.113.9`. */
  key: string
  window_start: number
  count: number
}

export interface UsersTable {
  id: string
  username: string
  /** Stored lower-case. */
  email: string
  /** scrypt, see auth/passwords.ts. */
  password_hash: string
  user_type: UserType
  status: UserStatus
  /** Upper-case, unique; given to every user at creation. */
  invite_code: string
  /** Bound once at registration, permanently (DESIGN §6). */
  invited_by: string | null
  remark: string | null
  name: string | null
  phone: string | null
  company: string | null
  avatar: string | null
  /** The `ver` claim of access tokens; bumping it ends every session's access token. */
  token_version: number
  create_timestamp: number
  update_timestamp: number
  last_login_timestamp: number | null
}

export const emailCodePurposes = ['register', 'reset'] as const
export type EmailCodePurpose = (typeof emailCodePurposes)[number]

/** Six-digit codes sent by e-mail; only a hash is kept (auth/email-codes.ts). */
export interface EmailCodesTable {
  id: string
  email: string
  purpose: EmailCodePurpose
  code_hash: string
  /** Verification attempts so far, the successful one included. */
  attempts: number
  created_at: number
  expires_at: number
  /** Used, or voided by a newer code. */
  consumed_at: number | null
}

/** Opaque refresh tokens, stored as hashes (auth/refresh-tokens.ts). */
export interface RefreshTokensTable {
  id: string
  user_id: string
  /** The first token of a login; every rotation stays in its family. */
  family_id: string
  token_hash: string
  created_at: number
  expires_at: number
  /** When it was exchanged for a successor; still usable for the reuse grace. */
  rotated_at: number | null
  revoked_at: number | null
}

/** API keys (keys/service.ts); only the SHA-256 digest of a key is kept. */
export interface ApiKeysTable {
  id: string
  user_id: string
  name: string
  key_hash: string
  /** Last four characters of the key, for its masked form. */
  last4: string
  create_timestamp: number
  /** Written at most once a minute per key, so authentication stays one read. */
  last_used_timestamp: number | null
  deleted_at: number | null
}

export const referralRewardKinds = ['first', 'later'] as const
export type ReferralRewardKind = (typeof referralRewardKinds)[number]

/** One row per paid redemption of an invitee (referral/rewards.ts). */
export interface ReferralRewardsTable {
  id: string
  inviter_id: string
  invitee_id: string
  redeem_code_id: string
  kind: ReferralRewardKind
  inviter_points: number
  invitee_points: number
  inviter_days: number
  invitee_days: number
  create_timestamp: number
}

/** The configured reward rule: a single row (id 1) of JSON, absent until an operator sets one. */
export interface ReferralRuleTable {
  id: number
  rule: string
  update_timestamp: number
}

/** Support tickets (tickets/service.ts). */
export interface TicketsTable {
  id: string
  /** `T` + yymmdd + day counter: what people quote. */
  number: string
  user_id: string
  type: TicketType
  priority: TicketPriority
  status: TicketStatus
  title: string
  content: string
  assignee_id: string | null
  /** JSON array of strings. */
  tags: string
  create_timestamp: number
  update_timestamp: number
  /** The latest operator reply. */
  reply_timestamp: number | null
  closed_timestamp: number | null
}

export interface TicketMessagesTable {
  id: string
  ticket_id: string
  author_kind: TicketAuthorKind
  author_id: string | null
  author_name: string | null
  content: string
  create_timestamp: number
}

/** Operator-managed links of the profile page (resources/service.ts); removal is a timestamp. */
export interface ResourceLinksTable {
  id: string
  title: string
  url: string
  description: string | null
  sort_order: number
  create_timestamp: number
  update_timestamp: number
  removed_timestamp: number | null
}

/** One row per UTC day: the last ticket number handed out that day. */
export interface TicketNumberDaysTable {
  day: string
  counter: number
}

/** A registered external client (relay/oauth/clients.ts). */
export interface OAuthClientsTable {
  id: string
  /** Public, non-numeric (`rc_…`), so it never travels as a bare JSON number. */
  client_id: string
  name: string
  secret_hash: string
  /** JSON array of the redirect URIs, each matched exactly. */
  redirect_uris: string
  /** 1: our own app, allowed on the SSO screen. */
  first_party: number
  created_at: number
}

/** Authorisation codes of the code flow: single-use, 60 s, bound to client, redirect URI and PKCE challenge. */
export interface OAuthAuthorizationCodesTable {
  id: string
  code_hash: string
  client_id: string
  user_id: string
  redirect_uri: string
  /** Granted scopes, space-separated. */
  scope: string
  code_challenge: string
  created_at: number
  expires_at: number
  used_at: number | null
}

export const deviceCodeStatuses = ['pending', 'approved', 'denied', 'issued'] as const
export type DeviceCodeStatus = (typeof deviceCodeStatuses)[number]

/** RFC 8628 device authorisations (relay/oauth/device-codes.ts). */
export interface OAuthDeviceCodesTable {
  id: string
  /** Digest of the 8 characters a person types. */
  user_code_hash: string
  /** Digest of the long secret the client polls with. */
  secret_hash: string
  client_id: string
  scope: string
  status: DeviceCodeStatus
  /** Who approved or denied it. */
  user_id: string | null
  /** Grows by 5 with every slow_down (RFC 8628 §3.5). */
  interval_seconds: number
  last_polled_at: number | null
  created_at: number
  expires_at: number
  decided_at: number | null
}

/** Refresh tokens held by clients; a family is one grant (the code or device row it came from). */
export interface OAuthRefreshTokensTable {
  id: string
  family_id: string
  client_id: string
  user_id: string
  scope: string
  /** The user's token_version at issue: a password change ends the grant. */
  token_version: number
  token_hash: string
  created_at: number
  expires_at: number
  rotated_at: number | null
  revoked_at: number | null
}

export interface Tables {
  rate_limits: RateLimitsTable
  oauth_clients: OAuthClientsTable
  oauth_authorization_codes: OAuthAuthorizationCodesTable
  oauth_device_codes: OAuthDeviceCodesTable
  oauth_refresh_tokens: OAuthRefreshTokensTable
  users: UsersTable
  email_codes: EmailCodesTable
  refresh_tokens: RefreshTokensTable
  api_keys: ApiKeysTable
  referral_rewards: ReferralRewardsTable
  referral_rule: ReferralRuleTable
  tickets: TicketsTable
  ticket_messages: TicketMessagesTable
  ticket_number_days: TicketNumberDaysTable
  resource_links: ResourceLinksTable
}
