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
import type { PackageKind, PackageListing } from '../contract/accounts.ts'
import type { ModelCostKind, PointsEntryType, ResetReason } from '../contract/points.ts'
import type { SubscriptionAction } from '../contract/subscriptions.ts'
import type { SignInOutcome } from '../contract/security.ts'
import type { AlertEvent, AlertPhase, WebhookKind } from '../contract/alerts.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import type { AnnouncementLevel, NotificationEvent } from '../contract/notifications.ts'

/** Window counters of the rate limiter (http/rate-limit.ts), each window begun by its first request. */
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
  /** Bound once at registration, permanently (docs/architecture.md §6). */
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

/** An operator's action (relay/audit/audit-log.ts). */
export interface AuditLogTable {
  id: string
  actor_kind: 'admin' | 'cli'
  actor_id: string | null
  actor_name: string
  client_ip: string | null
  action: string
  target_kind: string
  target_ref: string
  /** JSON, or null. */
  before: string | null
  after: string | null
  create_timestamp: number
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
  /** The absolute end of the session (login + SESSION_LIFETIME_DAYS); null on rows from before it existed. */
  session_expires_at: number | null
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
  /** The owner's controls (keys/limits.ts, 0025-key-limits); null: no limit. */
  disabled_timestamp: number | null
  expires_timestamp: number | null
  points_quota: number | null
  daily_points_quota: number | null
  /** JSON array of model patterns; null: every model. */
  allowed_models: string | null
  rpm_limit: number | null
  concurrency_limit: number | null
  /** JSON array of addresses and CIDR ranges the key may be used from (keys/networks.ts); null: anywhere. */
  allowed_ips: string | null
  /** Points charged to the key's calls, ever and on `points_day` (UTC+8 days since the epoch). */
  points_used: number
  day_points_used: number
  points_day: number
}

/** One call in flight of a limited key or a capped team member (proxy/call-leases.ts); removed when the call is recorded. */
export interface CallLeasesTable {
  id: string
  /** Set when the call's key has a counting limit. */
  key_id: string | null
  /** The caller, when a team member under a cap. */
  member_id: string | null
  /** The call's likely cost, counted against quotas and caps while it runs. */
  points: number
  create_timestamp: number
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
/** The providers' list prices the price page and the reconciliation compare with (public-stats/list-prices.ts). */
export interface ListPricesTable {
  /** A model name or pattern, matched as the price table matches a call's model. */
  model: string
  input_cents_per_mtok: number
  output_cents_per_mtok: number
}

/** One row: the day the list prices were read and the CNY per USD rate of that day, in fen. */
export interface ListPriceBasisTable {
  id: number
  read_on: string
  fen_per_usd: number
  update_timestamp: number
}

export interface ReferralRuleTable {
  id: number
  rule: string
  update_timestamp: number
}

/** Tickets the relay opens itself (points/reset.ts). */
export type SystemTicketKind = 'points_reset'

/** Support tickets (tickets/service.ts). */
export interface TicketsTable {
  id: string
  /** `T` + yymmdd + day counter: what people quote. */
  number: string
  user_id: string
  type: TicketType
  priority: TicketPriority
  status: TicketStatus
  /** For a ticket the relay opens itself, the English title; readers get it in their language (tickets/system-tickets.ts). */
  title: string
  content: string
  /** Set when the relay opened the ticket itself; null when a person wrote it. */
  system_kind: SystemTicketKind | null
  /** `points_reset`: the reason chosen, written in the reader's language before `content`. */
  reset_reason: ResetReason | null
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
  /** Who started it, as the relay saw them; null on codes from before 0023. */
  client_ip: string | null
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
  /** The absolute end of the grant (approval + SESSION_LIFETIME_DAYS); null on rows from before it existed. */
  session_expires_at: number | null
}

/** Failed password attempts of one account (auth/login-throttle.ts); gone after a successful sign-in. */
export interface LoginFailuresTable {
  /** `user:<id>`, or `name:<login>` for a login no account has (relay/auth/login-throttle.ts). */
  subject: string
  failures: number
  attempt_at: number
}

/** Packages (subscriptions/packages.ts): immutable once created, so subscriptions read them live. */
export interface PackagesTable {
  id: string
  code: string
  /** Name and description in each language (0010-languages). */
  name_zh: string
  name_en: string
  name_ja: string
  kind: PackageKind
  points_limit: number
  hour_points: number
  validity_days: number
  /** Minor units (fen); 0 = free. */
  price: number
  description_zh: string | null
  description_en: string | null
  description_ja: string | null
  create_timestamp: number
  /** Whether it is offered (0065-package-listing). */
  listing: PackageListing
}

/** Personal (user_id) or a team's (team_id) subscription to a package (subscriptions/). */
export interface SubscriptionsTable {
  id: string
  user_id: string | null
  team_id: string | null
  package_id: string
  status: 'normal' | 'expired' | 'disabled'
  start_timestamp: number
  end_timestamp: number
  /** When it actually ended: end_timestamp, or earlier when replaced. */
  ended_timestamp: number | null
  create_timestamp: number
}

export interface SubscriptionEventsTable {
  id: string
  user_id: string
  subscription_id: string
  action: Exclude<SubscriptionAction, 'current'>
  create_timestamp: number
}

/** Teams (teams/); the invitation code is base64 of `<id>:<secret>`. */
export interface TeamsTable {
  id: string
  name: string
  owner_id: string
  secret: string
  create_timestamp: number
}

/** One row per member: a user is in at most one team, for good. */
export interface TeamMembersTable {
  user_id: string
  team_id: string
  create_timestamp: number
  /** The owner's caps on this member's points per hour and per UTC+8 day; null for none. */
  hourly_points_cap: number | null
  daily_points_cap: number | null
  /** Points charged in hour `points_hour` (hours since the epoch) and day `points_day`. */
  hour_points_used: number
  points_hour: number
  day_points_used: number
  points_day: number
}

/** A points balance (points/ledger.ts): of one personal subscription, or of a team's pool. */
export interface PointsAccountsTable {
  id: string
  subscription_id: string | null
  team_id: string | null
  /** Spendable; always the sum of the account's ledger rows, never negative. */
  balance: number
  /** Sum of the open holds. */
  frozen: number
  /** Start of the current refill hour. */
  last_refill_timestamp: number
  create_timestamp: number
  /** How many ledger rows the account has: the `seq` of its newest. */
  entries: number
  /** `create_timestamp` of its newest ledger row; the next is never earlier. */
  last_entry_timestamp: number
  /** Net of its `consumed` rows, as a positive number: what the account has used. */
  consumed: number
}

/** Points reserved for a call in flight (ledger.ts freeze/settle). */
export interface PointsHoldsTable {
  id: string
  account_id: string
  user_id: string
  amount: number
  model: string | null
  create_timestamp: number
  settled_timestamp: number | null
  /** The relay instance that took it (RELAY_INSTANCE); null for holds taken by no relay. */
  owner: string | null
  /** Once the call's answer has started: its settlement as JSON, for the sweep if its relay is lost (proxy/answered-holds.ts). */
  answered: string | null
}

export interface PointsLedgerTable {
  id: string
  account_id: string
  user_id: string | null
  type: PointsEntryType
  change: number
  balance_after: number
  model: string | null
  reason: string | null
  hold_id: string | null
  /** Never earlier than the account's row before it, whatever the clocks of several relays say. */
  create_timestamp: number
  /** The row's place in its account, in commit order: 1, 2, 3 … (docs/decisions/020-points-ledger.md). */
  seq: number
}

/** Per user and UTC+8 day, kept by the ledger's writes (points/usage-days.ts). */
export interface PointsUsageDaysTable {
  user_id: string
  /** Days since the epoch, in UTC+8. */
  day: number
  /** Net of the user's `consumed` rows that day, as a positive number. */
  consumed: number
  /** Lines the user's points history gained that day (a row of no hold, or a call's `frozen` row). */
  lines: number
}

/** Single-use codes (subscriptions/redeem-codes.ts); only the SHA-256 of the code is kept. */
export interface RedeemCodesTable {
  id: string
  code_hash: string
  package_id: string
  expires_timestamp: number | null
  used_by: string | null
  used_timestamp: number | null
  subscription_id: string | null
  /** The generation it came from; null for codes made before batches existed. */
  batch_id: string | null
  /** Set when an operator withdrew the code before anyone used it. */
  revoked_timestamp: number | null
  create_timestamp: number
}

/** Points resets applied (points/reset.ts), for the automatic-approval cooldown. */
export interface PointsResetsTable {
  id: string
  user_id: string
  ticket_id: string
  amount: number
  /** 1 when approved automatically. */
  automatic: number
  create_timestamp: number
}

export interface ModelCostsTable {
  model: string
  kind: ModelCostKind
  points_per_call: number | null
  input_points_per_mtok: number | null
  output_points_per_mtok: number | null
  cache_read_points_per_mtok: number | null
  cache_write_points_per_mtok: number | null
  /** 1-hour cache writes; null: twice the input rate (migration 0048). */
  cache_write_1h_points_per_mtok: number | null
  /** Points per hosted web search; null: 1 (migration 0048). */
  web_search_points: number | null
  long_context_threshold: number | null
  long_context_input_percent: number | null
  long_context_output_percent: number | null
  description: string | null
  update_timestamp: number
}

/** Upstream LLM providers of the metered relay (relay/proxy/providers.ts). */
export interface ProxyProvidersTable {
  id: string
  kind: 'anthropic' | 'openai' | 'gemini'
  base_url: string
  key_ciphertext: string
  key_hint: string
  /** JSON array of glob patterns over model names. */
  models: string
  /** JSON of `{from, to}`: requested names sent upstream under others (proxy/model-mapping.ts); null: none. */
  model_map: string | null
  /** Higher first. */
  priority: number
  disabled_timestamp: number | null
  create_timestamp: number
}

/** An open circuit as one relay process reported it (relay/proxy/provider-circuits.ts). */
export interface ProxyProviderCircuitsTable {
  relay_id: string
  provider_id: string
  open_until: number
  update_timestamp: number
}

/** One forwarded call (relay/proxy/call-log.ts): billing facts only, never content. */
export interface ProxyCallsTable {
  id: string
  user_id: string
  /** The API key, or null for a call made with an OAuth access token (then `client_id`). */
  key_id: string | null
  client_id: string | null
  provider_id: string | null
  api: 'anthropic' | 'openai' | 'responses' | 'gemini'
  model: string
  streamed: number
  outcome: 'completed' | 'abandoned' | 'cut' | 'refused' | 'failed'
  /** The HTTP status the client got. */
  status: number
  input_tokens: number
  output_tokens: number
  cache_read_tokens: number
  cache_write_tokens: number
  cache_write_1h_tokens: number
  web_search_requests: number
  points: number
  /** What the call cost beyond what the balance held when it settled (docs/decisions/072-how-a-call-is-charged.md). */
  shortfall_points: number
  client_ip: string
  create_timestamp: number
  duration_ms: number
  /** Why the relay refused the call itself (a ProxyError kind); null when it was forwarded. */
  refusal: string | null
  /** From the call's arrival to the provider's answer starting; null when no answer came. */
  first_byte_ms: number | null
  /** The hold that reserved its points (variable-cost calls); its ledger rows carry the same id. */
  hold_id: string | null
  /** Time the relay spent before forwarding, the client's upload excluded (docs/decisions/120-figures-from-hourly-aggregates.md); null before 0020. */
  relay_ms: number | null
  /** JSON of its `ItemisedCharge` (points/model-costs.ts); null for calls before migration 0048. */
  charge: string | null
  /** The name the provider was asked for, when its model mapping changed it (proxy/model-mapping.ts). */
  upstream_model: string | null
}

/** Per hour and model family, what the public figures are made of (public-stats/aggregate.ts). */
export interface PublicCallHoursTable {
  hour_start: number
  family: string
  calls: number
  failures: number
  /** JSON array of counts, one per bucket of public-stats/latency-histogram.ts. */
  latency_buckets: string
}

/** The aggregations' progress (`relay`: the public figures, `ops`: the console's) and the ticket reply figure (on `relay`). */
export interface PublicStatsStateTable {
  name: 'relay' | 'ops'
  last_call_id: string
  ticket_reply_ms: number | null
  ticket_replies: number
  update_timestamp: number
}

/** Per hour, model and provider (0 for none), what the console's overview is made of (admin/overview.ts). */
export interface OpsCallHoursTable {
  hour_start: number
  model: string
  provider_id: string
  /** Calls as `relay_calls_total` counts them: by outcome label, `failures` being the failed ones (0060-alerts.ts). */
  calls: number
  answered: number
  failures: number
  cut: number
  refused: number
  /** Calls the relay refused itself (a usage-log line with a refusal), counted apart as `relay_refusals_total` does. */
  relay_refused: number
  points: number
  input_tokens: number
  output_tokens: number
  cache_read_tokens: number
  /** 5-minute cache writes. */
  cache_write_tokens: number
  cache_write_1h_tokens: number
  web_search_requests: number
  /** JSON arrays of counts over public-stats/latency-histogram.ts's buckets: relay_ms, first_byte_ms. */
  latency_buckets: string
  first_byte_buckets: string
}

/** Who called in each hour: a user and the key they used (0 for an OAuth token). */
export interface OpsActiveHoursTable {
  hour_start: number
  user_id: string
  key_id: string
}

/** Incidents the operator posts on the status page (public-stats/incidents.ts). */
export interface IncidentsTable {
  id: string
  title: string
  body: string | null
  start_timestamp: number
  resolved_timestamp: number | null
}

/** Settings a running server records for the tools sharing its database (deployment/public-url.ts). */
export interface DeploymentSettingsTable {
  name: 'public_url'
  value: string
  update_timestamp: number
}

/** The first reply to each idempotency key (relay/http/idempotency.ts). */
export interface IdempotentRequestsTable {
  key_hash: string
  user_id: string | null
  request_mac: string
  state: 'pending' | 'done'
  response: string | null
  create_timestamp: number
}

/** Two-factor sign-in of one user (auth/totp.ts, docs/decisions/071-secrets-sealed-with-jwt-secret.md). */
export interface TwoFactorTable {
  user_id: string
  /** The TOTP key, sealed (auth/totp.ts); never returned once enrolment is confirmed. */
  secret: string
  /** Null while enrolling: the key is not asked for at sign-in until a code confirmed it. */
  enabled_at: number | null
  /** The newest 30-second step a code was accepted for: a code never works twice. */
  last_step: number | null
  create_timestamp: number
}

/** Single-use recovery codes (auth/recovery-codes.ts), as SHA-256 digests. */
export interface RecoveryCodesTable {
  id: string
  user_id: string
  code_hash: string
  used_at: number | null
}

/** Where and when a sign-in's session (a refresh-token family) came from (auth/account-security.ts). */
export interface UserSessionsTable {
  /** The family id of the session's refresh tokens. */
  id: string
  user_id: string
  client_ip: string
  user_agent: string
  create_timestamp: number
  /** The sign-in, then each refresh of the session. */
  last_seen_timestamp: number
}

/** Sign-in attempts at an account: `success`, or the step that failed (auth/account-security.ts). */
export interface SignInEventsTable {
  id: string
  user_id: string
  client_ip: string
  user_agent: string
  outcome: SignInOutcome
  create_timestamp: number
}

/** Mails waiting to be sent, or sent (notifications/queue.ts). */
export interface MailQueueTable {
  id: string
  user_id: string
  event: NotificationEvent
  dedupe_key: string
  /** JSON. */
  payload: string
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'skipped'
  attempts: number
  /** Due from then; while `sending`, the end of the sender's claim. */
  next_attempt_at: number
  claimed_by: string | null
  last_error: string | null
  create_timestamp: number
  sent_timestamp: number | null
}

/** An alert webhook (relay/alerts/webhooks.ts); address and secret sealed (proxy/provider-keys.ts). */
export interface AlertWebhooksTable {
  id: string
  name: string
  kind: WebhookKind
  url_ciphertext: string
  url_hint: string
  secret_ciphertext: string | null
  language: ContentLanguage
  create_timestamp: number
  removed_timestamp: number | null
}

/** Something wrong the relays detected (relay/alerts/incidents.ts): open while `open_key` is set. */
export interface AlertIncidentsTable {
  id: string
  event: AlertEvent
  subject: string
  open_key: string | null
  /** JSON. */
  details: string
  opened_timestamp: number
  resolved_timestamp: number | null
}

/** One message to one webhook, queued like a mail (notifications/delivery-queue.ts). */
export interface WebhookDeliveriesTable {
  id: string
  webhook_id: string
  incident_id: string | null
  event: AlertEvent
  phase: AlertPhase
  subject: string
  dedupe_key: string
  /** JSON of the incident's figures, rendered when sent. */
  payload: string
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'skipped'
  attempts: number
  next_attempt_at: number
  claimed_by: string | null
  last_error: string | null
  create_timestamp: number
  sent_timestamp: number | null
}

/** One user's mail choices (notifications/settings.ts); flags are 0/1. */
export interface NotificationSettingsTable {
  user_id: string
  language: string
  balance_low: number
  package_expiry: number
  ticket_reply: number
  new_sign_in: number
  balance_threshold: number | null
  balance_below: number
  balance_crossings: number
  update_timestamp: number
}

/** The devices a user signed in from (notifications/sign-in-devices.ts). */
export interface SignInDevicesTable {
  user_id: string
  device_hash: string
  first_seen: number
  last_seen: number
}

/** Messages operators show signed-in users for a while (announcements/service.ts). */
export interface AnnouncementsTable {
  id: string
  level: AnnouncementLevel
  message_zh: string
  message_en: string
  message_ja: string
  starts_at: number
  ends_at: number
  create_timestamp: number
}

export interface AnnouncementDismissalsTable {
  announcement_id: string
  user_id: string
  create_timestamp: number
}

/** PostgreSQL only: each function of db/functions.ts with the hash of the text last applied. */
export interface RelayFunctionsTable {
  name: string
  sha256: string
  applied_timestamp: number
}

export interface Tables {
  mail_queue: MailQueueTable
  alert_webhooks: AlertWebhooksTable
  alert_incidents: AlertIncidentsTable
  webhook_deliveries: WebhookDeliveriesTable
  notification_settings: NotificationSettingsTable
  sign_in_devices: SignInDevicesTable
  announcements: AnnouncementsTable
  announcement_dismissals: AnnouncementDismissalsTable
  deployment_settings: DeploymentSettingsTable
  rate_limits: RateLimitsTable
  oauth_clients: OAuthClientsTable
  oauth_authorization_codes: OAuthAuthorizationCodesTable
  oauth_device_codes: OAuthDeviceCodesTable
  oauth_refresh_tokens: OAuthRefreshTokensTable
  users: UsersTable
  audit_log: AuditLogTable
  email_codes: EmailCodesTable
  refresh_tokens: RefreshTokensTable
  login_failures: LoginFailuresTable
  two_factor: TwoFactorTable
  recovery_codes: RecoveryCodesTable
  user_sessions: UserSessionsTable
  sign_in_events: SignInEventsTable
  api_keys: ApiKeysTable
  call_leases: CallLeasesTable
  referral_rewards: ReferralRewardsTable
  referral_rule: ReferralRuleTable
  list_prices: ListPricesTable
  list_price_basis: ListPriceBasisTable
  tickets: TicketsTable
  ticket_messages: TicketMessagesTable
  ticket_number_days: TicketNumberDaysTable
  resource_links: ResourceLinksTable
  packages: PackagesTable
  subscriptions: SubscriptionsTable
  subscription_events: SubscriptionEventsTable
  teams: TeamsTable
  team_members: TeamMembersTable
  points_accounts: PointsAccountsTable
  points_holds: PointsHoldsTable
  points_ledger: PointsLedgerTable
  points_usage_days: PointsUsageDaysTable
  redeem_codes: RedeemCodesTable
  points_resets: PointsResetsTable
  model_costs: ModelCostsTable
  proxy_providers: ProxyProvidersTable
  proxy_provider_circuits: ProxyProviderCircuitsTable
  proxy_calls: ProxyCallsTable
  public_call_hours: PublicCallHoursTable
  public_stats_state: PublicStatsStateTable
  ops_call_hours: OpsCallHoursTable
  ops_active_hours: OpsActiveHoursTable
  incidents: IncidentsTable
  idempotent_requests: IdempotentRequestsTable
  relay_functions: RelayFunctionsTable
}
