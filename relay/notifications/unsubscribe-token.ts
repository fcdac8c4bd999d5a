/**
 * The token of a mail's unsubscribe link (docs/decisions/125-mail-and-announcements.md): `<user id>.<kind>.<MAC>`, the MAC an
 * HMAC-SHA256 under the relay's first JWT secret. It never expires, as a link in an old mail must
 * still work; it can do one thing only, turn that kind of mail off for that user. Any configured
 * secret verifies, so rotating JWT_SECRET (prepending a key) keeps old links working.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { isId } from '../contract/ids.ts'
import { notificationKinds, type NotificationKind } from '../contract/notifications.ts'

function mac(secret: string, userId: string, kind: NotificationKind): string {
  return createHmac('sha256', secret).update(`unsubscribe:${userId}:${kind}`).digest('base64url')
}

export function unsubscribeToken(secrets: readonly string[], userId: string, kind: NotificationKind): string {
  return `${userId}.${kind}.${mac(secrets[0]!, userId, kind)}`
}

/** The user and kind a token names, or null when it is not one of ours. */
export function readUnsubscribeToken(secrets: readonly string[], token: string): { userId: string; kind: NotificationKind } | null {
  const [userId, kind, given, extra] = token.split('.')
  if (extra !== undefined || !userId || !isId(userId) || !given) return null
  const known = notificationKinds.find((k) => k === kind)
  if (!known) return null
  const givenBytes = Buffer.from(given)
  const valid = secrets.some((secret) => {
    const expected = Buffer.from(mac(secret, userId, known))
    return expected.length === givenBytes.length && timingSafeEqual(expected, givenBytes)
  })
  return valid ? { userId, kind: known } : null
}
