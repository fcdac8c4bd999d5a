/**
 * "View as user" (docs/console.md): an operator reads a user's own pages as the user sees them,
 * never acting as them. The relay hands the console a short-lived access token for the user that
 * carries the operator's id (`view_by`) and lives in the operator's own session, so it ends with
 * the operator's sign-out; every call with it other than a read is refused (http/authenticate.ts).
 * Each start is one audit row; reading under it writes nothing more.
 */
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { signViewToken } from '../auth/access-tokens.ts'
import type { ViewAs } from '../contract/admin-users.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { findUserById } from '../users/users.ts'

/** Long enough to look around, short enough that a forgotten view does not linger. */
export const viewAsMinutes = 30

export async function startViewAsOperator(
  services: Pick<RelayServices, 'db' | 'clock' | 'config'>,
  operator: Extract<Operator, { kind: 'admin' }>,
  view: { userId: string; sessionId: string },
): Promise<ViewAs> {
  const { db, clock, config } = services
  const user = await findUserById(db, view.userId)
  if (!user) throw new RelayError('not_found', 'user not found')
  // A disabled user's pages answer nobody, the operator reading them included.
  if (user.status !== 'active') throw new RelayError('business_rule', 'a disabled user has no pages to read: enable them first')
  const now = clock.now()
  const ttlSeconds = viewAsMinutes * 60
  const accessToken = await signViewToken(config, clock, user, { sessionId: view.sessionId, viewerId: operator.userId, ttlSeconds })
  const expires = Math.floor(now / 1000) * 1000 + ttlSeconds * 1000
  await recordAudit(db, operator, { action: 'user.view_as', target: { kind: 'user', ref: user.username }, after: { until: expires } }, now)
  return { access_token: accessToken, expires_timestamp: expires, user: { id: user.id, username: user.username } }
}
