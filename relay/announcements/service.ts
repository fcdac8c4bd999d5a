/**
 * Announcements (docs/decisions/125-mail-and-announcements.md): operators post one with a level and a window, from the
 * console or the CLI (each recorded in the audit log); signed-in users see those in force on
 * every page until they dismiss them, per user, so a dismissal follows them to every browser.
 */
import { z } from 'zod'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { isId } from '../contract/ids.ts'
import { announcementLevels, createAnnouncementBody, type AdminAnnouncement, type Announcement } from '../contract/notifications.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'

export type NewAnnouncement = z.input<typeof createAnnouncementBody>

/** Bad input throws a RelayError `validation` saying what is wrong. */
export async function createAnnouncement(db: Database, operator: Operator, input: NewAnnouncement, now: number): Promise<AdminAnnouncement> {
  const parsed = createAnnouncementBody.safeParse(input)
  if (!parsed.success) throw new RelayError('validation', z.prettifyError(parsed.error))
  const { level, message_zh, message_en, message_ja, starts_at, ends_at } = parsed.data
  if (ends_at <= now) throw new RelayError('validation', 'ends_at must be in the future')
  const row: AdminAnnouncement = {
    id: newId(),
    level,
    message_zh,
    message_en: message_en ?? message_zh,
    message_ja: message_ja ?? message_zh,
    starts_at: starts_at ?? now,
    ends_at,
    create_timestamp: now,
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('announcements').values(row).execute()
    await recordAudit(trx, operator, { action: 'announcement.create', target: { kind: 'announcement', ref: row.id }, after: row }, now)
  })
  return row
}

/** Those still to end first (by start), then the ended ones, newest first. */
export async function listAnnouncements(db: Database, now: number): Promise<AdminAnnouncement[]> {
  const rows = await db.selectFrom('announcements').selectAll().orderBy('ends_at', 'desc').orderBy('id', 'desc').limit(200).execute()
  const live = rows.filter((row) => row.ends_at > now).sort((a, b) => a.starts_at - b.starts_at)
  return [...live, ...rows.filter((row) => row.ends_at <= now)]
}

export async function removeAnnouncement(db: Database, operator: Operator, id: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = isId(id) ? await trx.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst() : undefined
    if (!row) throw new RelayError('not_found', `no announcement ${id}`)
    await trx.deleteFrom('announcement_dismissals').where('announcement_id', '=', id).execute()
    await trx.deleteFrom('announcements').where('id', '=', id).execute()
    await recordAudit(trx, operator, { action: 'announcement.remove', target: { kind: 'announcement', ref: id }, before: row }, now)
  })
}

const severity = (level: Announcement['level']) => announcementLevels.indexOf(level)

/** In force now and not dismissed by the user, most severe first, then newest. */
export async function announcementsFor(db: Database, userId: string, now: number, lang: ContentLanguage): Promise<Announcement[]> {
  const rows = await db
    .selectFrom('announcements')
    .select(['id', 'level', 'starts_at', 'ends_at', 'message_zh', 'message_en', 'message_ja'])
    .where('starts_at', '<=', now)
    .where('ends_at', '>', now)
    .where('id', 'not in', (eb) => eb.selectFrom('announcement_dismissals').select('announcement_id').where('user_id', '=', userId))
    .orderBy('starts_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows
    .map(({ id, level, starts_at, ends_at, ...messages }) => ({ id, level, starts_at, ends_at, message: messages[`message_${lang}`] }))
    .sort((a, b) => severity(b.level) - severity(a.level))
}

/** Idempotent; 404 for an announcement that does not exist (any more). */
export async function dismissAnnouncement(db: Database, userId: string, id: string, now: number): Promise<void> {
  const exists = await db.selectFrom('announcements').select('id').where('id', '=', id).executeTakeFirst()
  if (!exists) throw new RelayError('not_found')
  await db
    .insertInto('announcement_dismissals')
    .values({ announcement_id: id, user_id: userId, create_timestamp: now })
    .onConflict((oc) => oc.columns(['announcement_id', 'user_id']).doNothing())
    .execute()
}
