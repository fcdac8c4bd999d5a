/**
 * What the security page shows of an account (docs/decisions/099-sign-in.md): its sessions with where they
 * came from and when they were last seen, its sign-in attempts, the grants of external clients,
 * and its API keys' creations and deletions.
 *
 * A session's "last seen" moves at its sign-in and at each refresh (the portal refreshes a few
 * minutes before its access token ends), not on every call: the account API's hot path stays
 * one read.
 */
import type { Context } from 'hono'
import type { ExpressionBuilder } from 'kysely'
import { parseScopes } from '../contract/oauth-scopes.ts'
import type { SecurityOverview, SignInOutcome } from '../contract/security.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { Tables } from '../db/schema.ts'
import type { RelayServices } from '../services.ts'
import { recoveryCodesLeft, twoFactorEnabled } from './two-factor.ts'

/** Where a request came from, as the security page shows it. */
export interface RequestOrigin {
  clientIp: string
  userAgent: string
}

/** Sign-in attempts kept per user, newest first. */
export const signInsKept = 50
/** API key events shown. */
const keyEventsShown = 50
const userAgentMax = 256

export function requestOrigin(c: Context, clientIp: string): RequestOrigin {
  return { clientIp, userAgent: (c.req.header('user-agent') ?? '').slice(0, userAgentMax) }
}

/** A session is live while a refresh token of its family is neither revoked nor expired. */
function sessionIsLive(eb: ExpressionBuilder<Tables, 'user_sessions'>, now: number) {
  return eb.exists(
    eb
      .selectFrom('refresh_tokens')
      .select('refresh_tokens.id')
      .whereRef('refresh_tokens.family_id', '=', 'user_sessions.id')
      .where('refresh_tokens.revoked_at', 'is', null)
      .where('refresh_tokens.expires_at', '>', now),
  )
}

/** Records a new session; sessions of the user that have ended are forgotten at the same time. */
export async function recordSession(db: Database, sessionId: string, userId: string, origin: RequestOrigin, now: number): Promise<void> {
  await db
    .deleteFrom('user_sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.not(sessionIsLive(eb, now)))
    .execute()
  await db
    .insertInto('user_sessions')
    .values({ id: sessionId, user_id: userId, client_ip: origin.clientIp, user_agent: origin.userAgent, create_timestamp: now, last_seen_timestamp: now })
    .execute()
}

/** A refresh of `sessionId`: seen now, from this address. */
export async function touchSession(db: Database, sessionId: string, clientIp: string, now: number): Promise<void> {
  await db.updateTable('user_sessions').set({ last_seen_timestamp: now, client_ip: clientIp }).where('id', '=', sessionId).execute()
}

/** One sign-in attempt; only the newest `signInsKept` of the user are kept. */
export async function recordSignIn(db: Database, userId: string, outcome: SignInOutcome, origin: RequestOrigin, now: number): Promise<void> {
  const id = newId()
  await db
    .insertInto('sign_in_events')
    .values({ id, user_id: userId, outcome, client_ip: origin.clientIp, user_agent: origin.userAgent, create_timestamp: now })
    .execute()
  const oldestKept = await db
    .selectFrom('sign_in_events')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .offset(signInsKept - 1)
    .limit(1)
    .executeTakeFirst()
  if (oldestKept) await db.deleteFrom('sign_in_events').where('user_id', '=', userId).where('id', '<', oldestKept.id).execute()
}

/** Everything the security page lists; `currentSessionId` is the caller's own session. */
export async function securityOverview(services: Pick<RelayServices, 'db' | 'clock' | 'config'>, userId: string, currentSessionId: string): Promise<SecurityOverview> {
  const { db, clock, config } = services
  const now = clock.now()
  const [sessions, signIns, grants, keys, enabled, codesLeft] = await Promise.all([
    db
      .selectFrom('user_sessions')
      .select(['id', 'client_ip', 'user_agent', 'create_timestamp', 'last_seen_timestamp'])
      .where('user_id', '=', userId)
      .where((eb) => sessionIsLive(eb, now))
      .orderBy('last_seen_timestamp', 'desc')
      .execute(),
    db
      .selectFrom('sign_in_events')
      .select(['id', 'client_ip', 'user_agent', 'outcome', 'create_timestamp'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(signInsKept)
      .execute(),
    db
      .selectFrom('oauth_refresh_tokens as t')
      .innerJoin('oauth_clients as c', 'c.client_id', 't.client_id')
      .select((eb) => [
        't.family_id',
        't.client_id',
        'c.name',
        eb.fn.max('t.scope').as('scope'),
        eb.fn.min('t.created_at').as('created_at'),
        eb.fn.max('t.created_at').as('last_used_at'),
        eb.fn.max('t.session_expires_at').as('expires_at'),
      ])
      .where('t.user_id', '=', userId)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', now)
      .groupBy(['t.family_id', 't.client_id', 'c.name'])
      .orderBy('last_used_at', 'desc')
      .execute(),
    db
      .selectFrom('api_keys')
      .select(['id', 'name', 'last4', 'create_timestamp', 'deleted_at'])
      .where('user_id', '=', userId)
      .orderBy((eb) => eb.fn.coalesce('deleted_at', 'create_timestamp'), 'desc')
      .limit(keyEventsShown)
      .execute(),
    twoFactorEnabled(db, userId),
    recoveryCodesLeft(db, userId),
  ])
  const keyEvents = keys
    .flatMap((key) => [
      { key_id: key.id, name: key.name, last4: key.last4, kind: 'created' as const, timestamp: key.create_timestamp },
      ...(key.deleted_at === null ? [] : [{ key_id: key.id, name: key.name, last4: key.last4, kind: 'deleted' as const, timestamp: key.deleted_at }]),
    ])
    .sort((a, b) => b.timestamp - a.timestamp)
    .slice(0, keyEventsShown)
  return {
    two_factor: { enabled, recovery_codes_left: codesLeft, required: config.requireAdminTwoFactor },
    sessions: sessions.map((s) => ({
      id: s.id,
      client_ip: s.client_ip,
      user_agent: s.user_agent,
      create_timestamp: Number(s.create_timestamp),
      last_seen_timestamp: Number(s.last_seen_timestamp),
      current: String(s.id) === currentSessionId,
    })),
    sign_ins: signIns.map((e) => ({ id: e.id, client_ip: e.client_ip, user_agent: e.user_agent, outcome: e.outcome, timestamp: Number(e.create_timestamp) })),
    grants: grants.map((g) => ({
      id: g.family_id,
      client_id: g.client_id,
      client_name: g.name,
      scopes: parseScopes(String(g.scope)) ?? [],
      create_timestamp: Number(g.created_at),
      last_used_timestamp: Number(g.last_used_at),
      expires_timestamp: g.expires_at === null ? null : Number(g.expires_at),
    })),
    key_events: keyEvents,
  }
}
