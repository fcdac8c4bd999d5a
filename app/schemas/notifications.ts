/** Forms of mail notifications and announcements; bounds from the relay contract, messages are translation keys. */
import { z } from 'zod'
import { instantOf } from '#app/utils/utc8-days.ts'
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
/** A `datetime-local` value, read as UTC+8 (the portal's home time, as its days are: utils/utc8-days.ts), so it means the same without scripts. */
const localTime = (message: string) => z.string({ error: message }).regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, message)

export const announcementFormSchema = z
  .object({
    level: z.enum(announcementLevels),
    message_zh: requiredText(announcementMessageMax, 'validation:required'),
    message_en: optionalMessage,
    message_ja: optionalMessage,
    starts_at: localTime('admin:announcements.endsBeforeStart').optional(),
    ends_at: localTime('admin:announcements.endsRequired'),
  })
  .refine((v) => !v.starts_at || v.starts_at < v.ends_at, { path: ['ends_at'], message: 'admin:announcements.endsBeforeStart' })
  // An end already past would post nothing anyone sees.
  .refine((v) => instantOf(v.ends_at) > Date.now(), { path: ['ends_at'], message: 'admin:announcements.endsPast' })
