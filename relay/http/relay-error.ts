import { statusOf, type ErrorDetails, type ErrorReason } from '../contract/envelope.ts'

/**
 * A failure the caller should see. Throw it anywhere below a route; app.onError writes it as the
 * error envelope with the status of its reason. Anything else thrown becomes a 500 `internal`.
 */
export class RelayError extends Error {
  readonly reason: ErrorReason
  readonly details: Omit<ErrorDetails, 'reason'>

  constructor(reason: ErrorReason, message: string = defaultMessages[reason], details: Omit<ErrorDetails, 'reason'> = {}) {
    super(message)
    this.name = 'RelayError'
    this.reason = reason
    this.details = details
  }

  get status(): number {
    return statusOf(this.reason)
  }
}

/** English fallbacks; the portal shows its own translation of `reason`. */
const defaultMessages: Record<ErrorReason, string> = {
  validation: 'validation failed',
  bad_request: 'bad request',
  invalid_client: 'unknown client or wrong client secret',
  redirect_uri_mismatch: 'redirect_uri is not one the client registered',
  invalid_scope: 'unknown scope',
  invalid_grant: 'code, device secret or refresh token invalid, expired or used',
  authorization_pending: 'the user has not decided yet',
  slow_down: 'polling too fast',
  access_denied: 'the user denied the request',
  expired_token: 'the device code expired',
  team_code_format: 'invalid team code format',
  unauthenticated: 'authentication required',
  invalid_credentials: 'wrong username or password',
  token_expired: 'access token expired',
  refresh_invalid: 'refresh token invalid or expired',
  api_key_disabled: 'the API key is disabled',
  api_key_address_refused: 'the API key may not be used from this address',
  api_key_expired: 'the API key has expired',
  forbidden: 'forbidden',
  insufficient_scope: 'the token was not granted the scope this call needs',
  account_disabled: 'account disabled',
  not_found: 'not found',
  conflict: 'conflict',
  provider_exists: 'this provider exists already',
  username_taken: 'username already taken',
  email_taken: 'e-mail already registered',
  already_in_team: 'already a member of a team',
  reset_already_pending: 'a points reset request is already waiting',
  idempotency_in_progress: 'the first request with this Idempotency-Key is still running: try again shortly',
  business_rule: 'request not allowed',
  code_invalid: 'verification code invalid',
  code_expired: 'verification code expired',
  code_attempts_exceeded: 'too many wrong codes: request a new one',
  old_password_wrong: 'old password is wrong',
  invite_code_invalid: 'invite code invalid',
  passwords_mismatch: 'passwords do not match',
  device_code_invalid: 'device code invalid',
  device_code_expired: 'device code expired',
  redeem_code_invalid: 'redeem code invalid or expired',
  redeem_in_team: 'team members cannot redeem a personal package',
  view_only: 'an operator reading as this user cannot change anything',
  points_need_package: 'the user holds no package in force, so there is no account to credit: start a trial package',
  topup_needs_package: 'a top-up code adds points to a package in force: redeem a package first',
  team_code_invalid: 'team invitation code invalid or expired',
  team_inactive: "the team's package has ended",
  points_insufficient: 'not enough points',
  reset_not_needed: 'the balance is already at or above the package limit: a reset would add nothing',
  ticket_transition_invalid: 'the ticket cannot move to that status',
  ticket_closed: 'the ticket is closed: reopen it to reply',
  api_key_limit: 'API key limit reached',
  api_key_expiry_past: 'the last day of an API key cannot be in the past',
  payload_too_large: 'request body too large',
  idempotency_key_reused: 'this Idempotency-Key was already used for a different request',
  two_factor_invalid: 'wrong or already used two-factor code',
  two_factor_challenge_invalid: 'the sign-in took too long or is not valid: enter the password again',
  two_factor_enabled: 'two-factor sign-in is already on',
  two_factor_not_enabled: 'two-factor sign-in is not on',
  two_factor_required: 'operators must turn on two-factor sign-in first',
  rate_limited: 'too many requests',
  internal: 'internal error',
  unavailable: 'service unavailable',
}
