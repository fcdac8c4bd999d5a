/**
 * Each user's mail choices (docs/decisions/125): every kind is on until the user turns it off, no
 * balance threshold until they set one, and mails are written in the language of their latest
 * sign-in or settings change. A user without a row has the defaults.
 */
import { contentLanguages, defaultContentLanguage, type ContentLanguage } from '../contract/languages.ts'
import type { NotificationKind, NotificationSettings } from '../contract/notifications.ts'
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

function flags(settings: Partial<NotificationSettings>) {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0)
  return {
    balance_low: flag(settings.balance_low),
    package_expiry: flag(settings.package_expiry),
    ticket_reply: flag(settings.ticket_reply),
    new_sign_in: flag(settings.new_sign_in),
  }
}

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
  const set = Object.fromEntries(
    Object.entries({ ...flags(change), balance_threshold: change.balance_threshold, language: change.language }).filter(([, value]) => value !== undefined),
  )
  const thresholdChanged = change.balance_threshold !== undefined
  await db
    .insertInto('notification_settings')
    .values({
      user_id: userId,
      language: change.language ?? defaultContentLanguage,
      ...flags({ ...defaults, ...change }),
      balance_threshold: change.balance_threshold ?? null,
      balance_below: 0,
      balance_crossings: 0,
      update_timestamp: now,
    } as never)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...set, ...(thresholdChanged ? { balance_below: 0 } : {}), update_timestamp: now }))
    .execute()
}

export function isKindOn(settings: NotificationSettings, kind: NotificationKind): boolean {
  return settings[kind]
}
