/**
 * The mail queue (docs/decisions/125-mail-and-announcements.md). Events are queued in the database, in the transaction of
 * what caused them where there is one, so no request ever waits for SMTP; each relay's sender
 * (`startMailSender`) claims the mails that are due and sends them, with the queue machinery
 * of delivery-queue.ts (once per event, once per send, retried with back-off, nothing lost).
 * Rendered when sent, in the user's language then, to their address then; a kind turned off in
 * the meantime is `skipped`.
 */
import { eventKind, type NotificationEvent } from '../contract/notifications.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { MailQueueTable } from '../db/schema.ts'
import type { RelayServices } from '../services.ts'
import { findUserById } from '../users/users.ts'
import { renderNotification, type NotificationPayload } from './texts.ts'
import { isKindOn, readSettings } from './settings.ts'
import { unsubscribeToken } from './unsubscribe-token.ts'
import { deliverDue, type Delivered } from './delivery-queue.ts'

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

/** Sends every mail due now; returns how many were sent. */
export function sendDueMails(services: RelayServices): Promise<number> {
  return deliverDue<MailQueueTable>(services, 'mail_queue', (row) => sendOne(services, row), (row) => ({ event: row.event }))
}

async function sendOne(services: RelayServices, row: MailQueueTable): Promise<Delivered> {
  const { db, config } = services
  const [user, settings] = await Promise.all([findUserById(db, row.user_id), readSettings(db, row.user_id)])
  if (!user || user.status !== 'active' || !isKindOn(settings, eventKind[row.event])) return 'skipped'
  const kind = eventKind[row.event]
  const unsubscribeUrl = new URL(`/unsubscribe?token=${encodeURIComponent(unsubscribeToken(config.jwtSecrets, user.id, kind))}`, config.publicUrl).href
  const mail = renderNotification(row.event, JSON.parse(row.payload) as never, settings.language, { publicUrl: config.publicUrl, unsubscribeUrl })
  await services.mailer.send({ to: user.email, ...mail, summary: `${row.event} ${row.dedupe_key}` })
  return 'sent'
}
