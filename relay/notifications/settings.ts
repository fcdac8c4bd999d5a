/**
 * Each user's mail choices (docs/decisions/125-mail-and-announcements.md): every kind is on until the user turns it off, no
 * balance threshold until they set one, and mails are written in the language of their latest
 * sign-in or settings change. A user without a row has the defaults.
 */
import { sql } from 'kysely'
import { contentLanguages, defaultContentLanguage, type ContentLanguage } from '../contract/languages.ts'
import { notificationKinds, type NotificationKind, type NotificationSettings } from '../contract/notifications.ts'
import type { Database } from '../db/open-database.ts'

const defaults: NotificationSettings = { balance_low: true, package_expiry: true, ticket_reply: true, new_sign_in: true, balance_threshold: null }

export interface StoredSettings extends NotificationSettings {
  language: ContentLanguage
}

export async function readSettings(db: Database, userId: string): Promise<StoredSettings> {
  const row = await db.selectFrom('notification_settings').selectAll().where('user_id', '=', userId).executeTakeFirst()
  if (!row) return { ...defaults, language: defaultContentLanguage }
  return {
    balance_low: row.balance_low === 1,
    package_expiry: row.package_expiry === 1,
    ticket_reply: row.ticket_reply === 1,
    new_sign_in: row.new_sign_in === 1,
    balance_threshold: row.balance_threshold,
    language: contentLanguages.find((lang) => lang === row.language) ?? defaultContentLanguage,
  }
}

const flag = (on: boolean): number => (on ? 1 : 0)

/**
 * Writes what is given, creating the row with the defaults for the rest. A new threshold starts a
 * fresh watch: a balance already below it is mailed at the next check.
 */
export async function updateSettings(
  db: Database,
  userId: string,
  change: Partial<NotificationSettings> & { language?: ContentLanguage },
  now: number,
): Promise<void> {
  const full = { ...defaults, ...change }
  const given = <K extends keyof NotificationSettings>(key: K) => change[key] !== undefined
  const kinds = notificationKinds.filter(given)
  await db
    .insertInto('notification_settings')
    .values({
      user_id: userId,
      language: change.language ?? defaultContentLanguage,
      balance_low: flag(full.balance_low),
      package_expiry: flag(full.package_expiry),
      ticket_reply: flag(full.ticket_reply),
      new_sign_in: flag(full.new_sign_in),
      balance_threshold: full.balance_threshold,
      balance_below: 0,
      balance_crossings: 0,
      update_timestamp: now,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        ...Object.fromEntries(kinds.map((kind) => [kind, flag(full[kind])])),
        ...(change.language ? { language: change.language } : {}),
        ...(given('balance_threshold')
          ? {
              balance_threshold: full.balance_threshold,
              // Saving the same threshold again is no new watch: the fall already mailed stays mailed.
              balance_below: sql<number>`case when notification_settings.balance_threshold is distinct from excluded.balance_threshold then 0 else notification_settings.balance_below end`,
            }
          : {}),
        update_timestamp: now,
      }),
    )
    .execute()
}

export function isKindOn(settings: NotificationSettings, kind: NotificationKind): boolean {
  return settings[kind]
}
