/** Forms of mail notifications and announcements; bounds from the relay contract, messages are translation keys. */
import { z } from 'zod'
import { fallbackZone, instantInZone, isTimeZone } from '#app/utils/zoned-time.ts'
import { announcementLevels, announcementMessageMax, balanceThresholdMax } from '#relay/contract/index.ts'
import { requiredText } from './auth.ts'

/** An unticked box is not sent at all: absent means off. */
const box = z.boolean().optional().transform(Boolean)
const thresholdMessage = 'notifications:thresholdInvalid'

export const notificationSettingsFormSchema = z.object({
  balance_low: box,
  package_expiry: box,
  ticket_reply: box,
  new_sign_in: box,
  balance_threshold: z.number({ error: thresholdMessage }).int(thresholdMessage).min(1, thresholdMessage).max(balanceThresholdMax, thresholdMessage).optional(),
})

const optionalMessage = z.string().trim().max(announcementMessageMax, 'validation:tooLong').optional()
/** A `datetime-local` value, read in the form's `time_zone` (utils/zoned-time.ts). */
const localTime = (message: string) => z.string({ error: message }).regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, message)

export const announcementFormSchema = z
  .object({
    level: z.enum(announcementLevels),
    message_zh: requiredText(announcementMessageMax, 'validation:required'),
    message_en: optionalMessage,
    message_ja: optionalMessage,
    starts_at: localTime('admin:announcements.endsBeforeStart').optional(),
    ends_at: localTime('admin:announcements.endsRequired'),
    /** The reader's zone, which the page fills in once scripts run; the times above are read in it. */
    time_zone: z.string().default(fallbackZone),
  })
  // A hidden field: its error is the form's. Checks of the whole run even when one failed, so the others skip an unknown zone.
  .refine((v) => isTimeZone(v.time_zone), 'admin:announcements.zoneInvalid')
  .refine((v) => !v.starts_at || !isTimeZone(v.time_zone) || instantInZone(v.starts_at, v.time_zone) < instantInZone(v.ends_at, v.time_zone), {
    path: ['ends_at'],
    message: 'admin:announcements.endsBeforeStart',
  })
  // An end already past would post nothing anyone sees.
  .refine((v) => !isTimeZone(v.time_zone) || instantInZone(v.ends_at, v.time_zone) > Date.now(), { path: ['ends_at'], message: 'admin:announcements.endsPast' })
