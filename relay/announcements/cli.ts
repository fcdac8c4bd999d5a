/** Operator commands for the announcements signed-in users see (docs/decisions/125-mail-and-announcements.md). */
import { z } from 'zod'
import { cliOperator } from '../audit/audit-log.ts'
import { defineCommand, type Command } from '../cli-registry.ts'
import { announcementLevels, announcementMessageMax } from '../contract/notifications.ts'
import { createAnnouncement, listAnnouncements, removeAnnouncement } from './service.ts'

/** `2026-11-27 09:00` or `2026-11-27T09:00`, read as UTC; or a full ISO time with its offset. */
const time = z
  .string()
  .transform((text, ctx) => {
    const trimmed = text.trim().replace(' ', 'T')
    const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(trimmed) ? trimmed : `${trimmed}Z`)
    if (Number.isNaN(ms)) ctx.addIssue({ code: 'custom', message: `not a time: ${text} (use YYYY-MM-DD HH:MM, UTC)` })
    return ms
  })
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')
const message = z.string().max(announcementMessageMax)

export const announcementCommands: Command[] = [
  defineCommand({
    name: 'announcement create',
    summary: 'Show signed-in users a message between two times (banner and dashboard), print its id',
    options: {
      level: { description: announcementLevels.join(' | '), schema: z.enum(announcementLevels) },
      message: { description: `the text in every language, up to ${announcementMessageMax} characters (or --message-zh/-en/-ja)`, schema: message.optional() },
      'message-zh': { description: 'the Chinese text', schema: message.optional() },
      'message-en': { description: 'the English text (default: the Chinese one)', schema: message.optional() },
      'message-ja': { description: 'the Japanese text (default: the Chinese one)', schema: message.optional() },
      from: { description: 'start, YYYY-MM-DD HH:MM in UTC (default: now)', schema: time.optional() },
      until: { description: 'end, YYYY-MM-DD HH:MM in UTC', schema: time },
    },
    async run(values, { services, print }) {
      const zh = values['message-zh'] ?? values.message
      if (!zh) throw new Error('give --message or --message-zh')
      const announcement = await createAnnouncement(
        services.db,
        cliOperator(),
        { level: values.level, message_zh: zh, message_en: values['message-en'] ?? values.message, message_ja: values['message-ja'] ?? values.message, starts_at: values.from, ends_at: values.until },
        services.clock.now(),
      )
      print(announcement.id)
    },
  }),

  defineCommand({
    name: 'announcement list',
    summary: 'Every announcement: those still to end first, then the ended ones',
    options: {},
    async run(_values, { services, print }) {
      const now = services.clock.now()
      const items = await listAnnouncements(services.db, now)
      const id = Math.max(2, ...items.map((item) => item.id.length))
      const state = (item: (typeof items)[number]) => (item.ends_at <= now ? 'ended' : item.starts_at > now ? 'scheduled' : 'showing')
      print(['id'.padEnd(id), 'level'.padEnd(8), 'from (UTC)'.padEnd(16), 'until (UTC)'.padEnd(16), 'state'.padEnd(9), 'message (zh)'].join('  '))
      for (const item of items) print([item.id.padEnd(id), item.level.padEnd(8), utc(item.starts_at), utc(item.ends_at), state(item).padEnd(9), item.message_zh].join('  '))
      print(`${items.length} announcement(s)`)
    },
  }),

  defineCommand({
    name: 'announcement remove',
    summary: 'Take an announcement down at once',
    argument: { name: 'id', description: 'the id that announcement create or announcement list prints' },
    options: {},
    async run({ id }, { services, print }) {
      await removeAnnouncement(services.db, cliOperator(), id, services.clock.now())
      print(`removed ${id}`)
    },
  }),
]
