/**
 * The session lives in a cookie, encrypted (JWE, dir + A256GCM) rather than only signed:
 * React Router's cookie sessions sign, which would leave the relay tokens readable by anyone
 * who decodes the cookie. Keys come from SESSION_SECRET; the first encrypts, all decrypt, so a
 * secret can be rotated without signing everyone out. See docs/decisions/003-sessions.md.
 */
import { createHash } from 'node:crypto'
import { compactDecrypt, CompactEncrypt } from 'jose'
import { servedOverHttps, sessionSecrets } from '#server/env.ts'

export interface SessionData {
  accessToken: string
  refreshToken: string
  /** Epoch ms when the access token expires. */
  accessExpiresAt: number
  /** Epoch ms when the refresh token expires. */
  refreshExpiresAt: number
  /** Remember-me: the cookie lives as long as the refresh token, else as long as the access token. */
  remember: boolean
  /**
   * An operator reading a user's pages (docs/console.md, "View as user"): the relay's read-only
   * token for that user. Kept in this encrypted cookie, so only the relay's answer to the operator
   * can put it there.
   */
  viewAs?: ViewAsMarker
}

export interface ViewAsMarker {
  token: string
  userId: string
  username: string
  /** Epoch ms; the view ends then. */
  expiresAt: number
}

/**
 * Over https the name carries the `__Host-` prefix: browsers then accept the cookie only when it
 * is Secure, host-only and for Path=/, so neither a subdomain nor a plain-http page can plant or
 * shadow a session.
 */
function cookieName(): string {
  return servedOverHttps() ? '__Host-session' : '__session'
}
const encoder = new TextEncoder()
const decoder = new TextDecoder()

function keyOf(secret: string): Uint8Array {
  return createHash('sha256').update(secret).digest()
}

function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie')
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

export async function readSession(request: Request): Promise<SessionData | null> {
  const value = readCookie(request, cookieName())
  if (!value) return null
  for (const secret of sessionSecrets()) {
    try {
      const { plaintext } = await compactDecrypt(value, keyOf(secret))
      return JSON.parse(decoder.decode(plaintext)) as SessionData
    } catch {
      // Wrong key (rotated) or tampered: try the next secret.
    }
  }
  return null
}

function cookieAttributes(maxAgeSeconds: number): string {
  const secure = servedOverHttps() ? '; Secure' : ''
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure}`
}

/** The Set-Cookie header value that stores the session. */
export async function commitSession(session: SessionData, now = Date.now()): Promise<string> {
  const [secret] = sessionSecrets()
  const jwe = await new CompactEncrypt(encoder.encode(JSON.stringify(session)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .encrypt(keyOf(secret!))
  const expiresAt = session.remember ? session.refreshExpiresAt : session.accessExpiresAt
  return `${cookieName()}=${jwe}; ${cookieAttributes((expiresAt - now) / 1000)}`
}

/** The Set-Cookie header value that removes the session. */
export function destroySession(): string {
  return `${cookieName()}=; ${cookieAttributes(0)}`
}

/**
 * The device cookie (relay/auth/device-tokens.ts): the relay's token that this browser signed in
 * before, sent with its next sign-in so a flood of wrong passwords from elsewhere does not delay
 * it. It outlives sign-out on purpose; it opens nothing by itself.
 */
function deviceCookieName(): string {
  return servedOverHttps() ? '__Host-device' : 'device'
}

export function readDeviceToken(request: Request): string | undefined {
  return readCookie(request, deviceCookieName())
}

/** The Set-Cookie header value that keeps `token` for a year, as long as the relay honours it. */
export function deviceCookie(token: string): string {
  return `${deviceCookieName()}=${token}; ${cookieAttributes(365 * 24 * 3600)}`
}

export function sessionFromTokens(
  tokens: { access_token: string; refresh_token: string; expires_in: number; refresh_expires_in: number },
  remember: boolean,
  now = Date.now(),
): SessionData {
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    accessExpiresAt: now + tokens.expires_in * 1000,
    refreshExpiresAt: now + tokens.refresh_expires_in * 1000,
    remember,
  }
}
