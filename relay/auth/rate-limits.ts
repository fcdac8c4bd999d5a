/**
 * Limits on the account calls (docs/architecture.md §8). Per IP they are generous, because many users in
 * China share an address behind carrier NAT; per account or e-mail they are tight.
 */
import { rateLimitRule } from '../http/rate-limit.ts'

export const accountLimits = {
  /** Password guessing against one account from one address. */
  loginPerIpAndName: rateLimitRule('login-ip-name', 10, 15 * 60),
  /** Password spraying across accounts from one address. */
  loginPerIp: rateLimitRule('login-ip', 100, 15 * 60),
  /** Attempts of one browser that signed in before (device-tokens.ts), whatever its address. */
  loginPerDevice: rateLimitRule('login-device', 10, 15 * 60),
  registerPerIp: rateLimitRule('register-ip', 20, 3600),
  /** One code a minute and ten an hour per e-mail: no mail bombing through us. */
  codeSendPerEmailMinute: rateLimitRule('code-send-email-minute', 1, 60),
  codeSendPerEmailHour: rateLimitRule('code-send-email-hour', 10, 3600),
  codeSendPerIp: rateLimitRule('code-send-ip', 30, 3600),
  /** Code guesses (register, reset) per address; each code also dies after its own 5 tries. */
  codeVerifyPerIp: rateLimitRule('code-verify-ip', 30, 3600),
  /** Availability checks reveal whether a name or e-mail exists: keep enumeration slow. */
  checkPerIp: rateLimitRule('check-ip', 60, 60),
  refreshPerIp: rateLimitRule('refresh-ip', 300, 15 * 60),
  /** Codes of the second sign-in step per address; each account is also slowed (login-throttle.ts). */
  twoFactorPerIp: rateLimitRule('two-factor-ip', 100, 15 * 60),
} as const
