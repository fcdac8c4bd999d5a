/**
 * Mail that matters and announcements (docs/decisions/125-mail-and-announcements.md): each user's mail choices, the
 * unsubscribe link every such mail carries (it works without signing in), and the announcements
 * operators post for signed-in users.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { idPathParams } from './paths.ts'

/** What a user can turn off, each on its own; `package_expiry` covers "expires in three days" and "expired". */
export const notificationKinds = ['balance_low', 'package_expiry', 'ticket_reply', 'new_sign_in'] as const
export type NotificationKind = (typeof notificationKinds)[number]

/** What happened, one mail each. */
export const notificationEvents = ['balance_low', 'package_expiring', 'package_expired', 'ticket_reply', 'new_sign_in'] as const
export type NotificationEvent = (typeof notificationEvents)[number]

export const eventKind: Record<NotificationEvent, NotificationKind> = {
  balance_low: 'balance_low',
  package_expiring: 'package_expiry',
  package_expired: 'package_expiry',
  ticket_reply: 'ticket_reply',
  new_sign_in: 'new_sign_in',
}

export const balanceThresholdMax = 100_000_000

export const notificationSettingsSchema = z
  .object({
    balance_low: z.boolean(),
    package_expiry: z.boolean(),
    ticket_reply: z.boolean(),
    new_sign_in: z.boolean(),
    /** Points; a mail when the balance falls below it, once per fall. Null: none. */
    balance_threshold: z.int().nullable(),
  })
  .meta({ id: 'NotificationSettings' })
export type NotificationSettings = z.output<typeof notificationSettingsSchema>

export const notificationSettingsBody = z.object({
  balance_low: z.boolean(),
  package_expiry: z.boolean(),
  ticket_reply: z.boolean(),
  new_sign_in: z.boolean(),
  balance_threshold: z.int().min(1).max(balanceThresholdMax).nullable(),
})

export const unsubscribeQuery = z.object({ token: z.string().min(1).max(512) })
export const unsubscribeSchema = z
  .object({
    kind: z.enum(notificationKinds),
    /** The address the mails go to, partly hidden (`a***@example.com`): whoever holds the link sees whose it is. */
    email: z.string(),
    enabled: z.boolean(),
  })
  .meta({ id: 'Unsubscribe' })

/* ---------- Announcements ---------- */

export const announcementLevels = ['info', 'warning', 'critical'] as const
export type AnnouncementLevel = (typeof announcementLevels)[number]
export const announcementMessageMax = 1000

/** As a signed-in user reads it: in their language. */
export const announcementSchema = z
  .object({ id: idSchema, level: z.enum(announcementLevels), message: z.string(), starts_at: timestampSchema, ends_at: timestampSchema })
  .meta({ id: 'Announcement' })
export type Announcement = z.output<typeof announcementSchema>

/** As operators manage it: every language. */
export const adminAnnouncementSchema = z
  .object({
    id: idSchema,
    level: z.enum(announcementLevels),
    message_zh: z.string(),
    message_en: z.string(),
    message_ja: z.string(),
    starts_at: timestampSchema,
    ends_at: timestampSchema,
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'AdminAnnouncement' })
export type AdminAnnouncement = z.output<typeof adminAnnouncementSchema>

const message = z.string().trim().min(1).max(announcementMessageMax)
/** English and Japanese default to the Chinese text: one message may serve every reader. */
export const createAnnouncementBody = z
  .object({
    level: z.enum(announcementLevels),
    message_zh: message,
    message_en: message.optional(),
    message_ja: message.optional(),
    /** Default: now. */
    starts_at: timestampSchema.optional(),
    ends_at: timestampSchema,
  })
  .refine((body) => body.starts_at === undefined || body.starts_at < body.ends_at, { message: 'ends_at must be after starts_at', path: ['ends_at'] })

const tag = 'notifications'

export const notificationEndpoints = {
  settings: endpoint({
    method: 'get',
    path: '/api/user/notifications',
    summary: 'Which mails the user gets, and the balance threshold',
    tag,
    auth: 'user',
    response: notificationSettingsSchema,
  }),
  saveSettings: endpoint({
    method: 'put',
    path: '/api/user/notifications',
    summary: "Set which mails the user gets and the balance threshold; mails are written in the request's language from now on",
    tag,
    auth: 'user',
    body: notificationSettingsBody,
    response: notificationSettingsSchema,
  }),
  unsubscribeInfo: endpoint({
    method: 'get',
    path: '/api/notifications/unsubscribe',
    summary: "What an unsubscribe link turns off (no account needed: the link's signed token is the authority)",
    tag,
    auth: 'none',
    query: unsubscribeQuery,
    response: unsubscribeSchema,
    errors: ['not_found'],
  }),
  unsubscribe: endpoint({
    method: 'post',
    path: '/api/notifications/unsubscribe',
    summary: "Turn off the kind of mail an unsubscribe link names",
    tag,
    auth: 'none',
    body: unsubscribeQuery,
    response: unsubscribeSchema,
    errors: ['not_found'],
  }),
  announcements: endpoint({
    method: 'get',
    path: '/api/user/announcements',
    summary: "The announcements in force that the user has not dismissed, most severe first, in the request's language",
    tag,
    auth: 'user',
    response: z.object({ items: z.array(announcementSchema) }),
  }),
  dismissAnnouncement: endpoint({
    method: 'post',
    path: '/api/user/announcements/{id}/dismiss',
    summary: 'Hide an announcement for this user',
    tag,
    auth: 'user',
    params: idPathParams,
    response: z.object({ ok: z.literal(true) }),
    errors: ['not_found'],
  }),
}
