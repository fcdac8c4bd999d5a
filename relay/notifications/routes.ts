/** The user's mail choices, the unsubscribe link's calls, and the announcements a user sees. */
import { announcementsFor, dismissAnnouncement } from '../announcements/service.ts'
import { notificationEndpoints } from '../contract/notifications.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { findUserById } from '../users/users.ts'
import { readSettings, updateSettings } from './settings.ts'
import { readUnsubscribeToken } from './unsubscribe-token.ts'

/** `a***@example.com`: enough for the owner to recognise, little for anyone else holding the link. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@')
  return `${local.slice(0, 1)}***@${domain}`
}

export function notificationRoutes(services: RelayServices): Route[] {
  const { db, clock, config } = services

  async function unsubscribeTarget(database: Database, token: string) {
    const target = readUnsubscribeToken(config.jwtSecrets, token)
    const user = target && (await findUserById(database, target.userId))
    if (!target || !user) throw new RelayError('not_found', 'this unsubscribe link is not valid')
    return { ...target, email: maskEmail(user.email) }
  }

  return [
    defineRoute(notificationEndpoints.settings, async ({ user }) => {
      const { language: _language, ...settings } = await readSettings(db, user.id)
      return settings
    }),
    defineRoute(notificationEndpoints.saveSettings, async ({ user, body, lang }) => {
      await updateSettings(db, user.id, { ...body, language: lang }, clock.now())
      const { language: _language, ...settings } = await readSettings(db, user.id)
      return settings
    }),
    // Reading a link changes nothing (mail scanners follow links): only the POST turns the kind off.
    defineRoute(notificationEndpoints.unsubscribeInfo, async ({ query }) => {
      const { userId, kind, email } = await unsubscribeTarget(db, query.token)
      return { kind, email, enabled: (await readSettings(db, userId))[kind] }
    }),
    defineRoute(notificationEndpoints.unsubscribe, async ({ body }) => {
      const { userId, kind, email } = await unsubscribeTarget(db, body.token)
      await updateSettings(db, userId, { [kind]: false }, clock.now())
      return { kind, email, enabled: false }
    }),
    defineRoute(notificationEndpoints.announcements, async ({ user, lang }) => ({ items: await announcementsFor(db, user.id, clock.now(), lang) })),
    defineRoute(notificationEndpoints.dismissAnnouncement, async ({ user, params }) => {
      await dismissAnnouncement(db, user.id, params.id, clock.now())
      return { ok: true as const }
    }),
  ]
}
