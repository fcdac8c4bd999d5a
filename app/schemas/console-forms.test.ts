/** Console forms refuse, with a message for the operator, what the relay would refuse only as "invalid input". */
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { oauthClientFormSchema } from './admin-catalog.ts'
import { announcementFormSchema } from './notifications.ts'

function parse<S extends Parameters<typeof parseWithZod>[1]['schema']>(schema: S, fields: Record<string, string>) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return parseWithZod(form, { schema })
}

/** `YYYY-MM-DDTHH:MM` on a clock `offsetHours` ahead of UTC, `ms` from now. */
const local = (ms: number, offsetHours = 0) => new Date(Date.now() + ms + offsetHours * 3_600_000).toISOString().slice(0, 16)

describe('console forms', () => {
  it('refuses an announcement whose end has passed, and takes one still to come', () => {
    const past = parse(announcementFormSchema, { level: 'info', message_zh: '维护', ends_at: local(-60_000) })
    expect(past.status === 'error' && past.error).toEqual({ ends_at: ['admin:announcements.endsPast'] })
    expect(parse(announcementFormSchema, { level: 'info', message_zh: '维护', ends_at: local(3_600_000) }).status).toBe('success')
  })

  it('reads an announcement’s times in the zone the form names, UTC when it names none', () => {
    // An hour from now on a clock in Tokyo; the same figures read in Tokyo off a UTC clock are eight hours past.
    const tokyo = { level: 'info', message_zh: '维护', ends_at: local(3_600_000, 9) }
    expect(parse(announcementFormSchema, { ...tokyo, time_zone: 'Asia/Tokyo' }).status).toBe('success')
    expect(parse(announcementFormSchema, tokyo).status).toBe('success')
    const inUtc = parse(announcementFormSchema, { ...tokyo, ends_at: local(3_600_000), time_zone: 'Asia/Tokyo' })
    expect(inUtc.status === 'error' && inUtc.error).toEqual({ ends_at: ['admin:announcements.endsPast'] })
    const unknown = parse(announcementFormSchema, { ...tokyo, time_zone: 'Mars/Olympus' })
    expect(unknown.status === 'error' && unknown.error).toEqual({ '': ['admin:announcements.zoneInvalid'] })
  })

  it('refuses a redirect URI the relay would refuse: plain http off this machine, a fragment', () => {
    for (const uri of ['http://app.example.com/callback', 'https://app.example.com/cb#x', 'not a url']) {
      const refused = parse(oauthClientFormSchema, { name: 'App', redirect_uris: `https://ok.example.com/cb\n${uri}` })
      expect(refused.status === 'error' && refused.error, uri).toEqual({ redirect_uris: ['admin:catalog.clients.redirectInvalid'] })
    }
    expect(parse(oauthClientFormSchema, { name: 'App', redirect_uris: 'https://app.example.com/cb http://127.0.0.1:8765/cb' }).status).toBe('success')
  })
})
