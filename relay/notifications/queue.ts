/**
 * The mail queue (docs/decisions/125-mail-and-announcements.md). Events are queued in the database, in the transaction of
 * what caused them where there is one, so no request ever waits for SMTP; each relay's sender
 * (`startMailSender`) claims the mails that are due and sends them.
 *
 * - Once per event: each row has a unique dedupe key, and queueing one that exists does nothing.
 * - Once per send: a claim is one UPDATE of rows still due, which sets them `sending` and moves
 *   `next_attempt_at` to the end of the claim; a second relay's UPDATE re-reads a row it waited
 *   for and finds it no longer due (PostgreSQL re-checks the WHERE after the row lock; SQLite has
 *   one writer). Only a relay that dies between the SMTP answer and marking the row sent leaves a
 *   mail that is sent again when its claim runs out.
 * - Nothing lost: an SMTP failure puts the mail back, due again after 30 s, doubling per attempt
 *   up to an hour; after `maxAttempts` (about two days) it is `failed` and logged.
 * - Rendered when sent, in the user's language then, to their address then; a kind turned off in
 *   the meantime is `skipped`.
 */
import { eventKind, type NotificationEvent } from '../contract/notifications.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { RelayServices } from '../services.ts'
import { findUserById } from '../users/users.ts'
import { renderNotification, type NotificationPayload } from './texts.ts'
import { isKindOn, readSettings } from './settings.ts'
import { unsubscribeToken } from './unsubscribe-token.ts'

export const firstRetryMs = 30_000
export const longestRetryMs = 3_600_000
export const maxAttempts = 50
/** A claimed mail not marked sent by then is due again (its relay died mid-send). */
const claimMs = 5 * 60_000
const batchSize = 20

export interface QueuedEvent<E extends NotificationEvent = NotificationEvent> {
  userId: string
  event: E
  dedupeKey: string
  payload: NotificationPayload[E]
  now: number
}

/** Queues one event's mail unless the user turned its kind off or it was queued before; true when queued. */
export async function queueMail<E extends NotificationEvent>(db: Database, item: QueuedEvent<E>): Promise<boolean> {
  if (!isKindOn(await readSettings(db, item.userId), eventKind[item.event])) return false
  const result = await db
    .insertInto('mail_queue')
    .values({
      id: newId(),
      user_id: item.userId,
      event: item.event,
      dedupe_key: item.dedupeKey,
      payload: JSON.stringify(item.payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: item.now,
      claimed_by: null,
      last_error: null,
      create_timestamp: item.now,
      sent_timestamp: null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1
}

/** After `attempts` failures: 30 s, 1 min, 2 min … at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(longestRetryMs, firstRetryMs * 2 ** Math.max(0, attempts - 1))
}

/** Claims up to `limit` due mails for `worker` in one statement (see above). */
export async function claimDueMails(db: Database, worker: string, now: number, limit = batchSize) {
  const due = db
    .selectFrom('mail_queue')
    .select('id')
    .where('status', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
  return db
    .updateTable('mail_queue')
    .set((eb) => ({ status: 'sending', claimed_by: worker, next_attempt_at: now + claimMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .where('status', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .execute()
}

type Row = Awaited<ReturnType<typeof claimDueMails>>[number]

/** Sends every mail due now, batch by batch; returns how many were sent. */
export async function sendDueMails(services: RelayServices): Promise<number> {
  let sent = 0
  for (;;) {
    const rows = await claimDueMails(services.db, services.config.instance, services.clock.now())
    for (const row of rows) if (await sendOne(services, row)) sent++
    if (rows.length < batchSize) return sent
  }
}

async function sendOne(services: RelayServices, row: Row): Promise<boolean> {
  const { db, clock, config, logger } = services
  // Only while the claim is still ours: a row another relay took over after our claim ran out is left alone.
  const finish = (set: { status: Row['status']; next_attempt_at?: number; last_error?: string | null; sent_timestamp?: number }) =>
    db.updateTable('mail_queue').set(set).where('id', '=', row.id).where('claimed_by', '=', config.instance).where('status', '=', 'sending').execute()

  const [user, settings] = await Promise.all([findUserById(db, row.user_id), readSettings(db, row.user_id)])
  if (!user || user.status !== 'active' || !isKindOn(settings, eventKind[row.event])) {
    await finish({ status: 'skipped' })
    return false
  }
  const kind = eventKind[row.event]
  const unsubscribeUrl = new URL(`/unsubscribe?token=${encodeURIComponent(unsubscribeToken(config.jwtSecrets, user.id, kind))}`, config.publicUrl).href
  const mail = renderNotification(row.event, JSON.parse(row.payload) as never, settings.language, { publicUrl: config.publicUrl, unsubscribeUrl })
  try {
    await services.mailer.send({ to: user.email, ...mail, summary: `${row.event} ${row.dedupe_key}` })
  } catch (error) {
    const message = String(error).slice(0, 500)
    const failed = row.attempts >= maxAttempts
    logger[failed ? 'error' : 'warn']('mail delivery failed', { id: row.id, event: row.event, attempts: row.attempts, error: message, gave_up: failed })
    await finish({ status: failed ? 'failed' : 'pending', next_attempt_at: clock.now() + retryDelayMs(row.attempts), last_error: message })
    return false
  }
  await finish({ status: 'sent', sent_timestamp: clock.now(), last_error: null })
  return true
}
